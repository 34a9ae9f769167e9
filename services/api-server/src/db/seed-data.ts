import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DashboardIndicator, PostInputSchema, PostStatusSchema } from '@app/contracts';
import * as v from 'valibot';
import type { PostWrite } from '../services/post-model';

/**
 * The seed's content as data (issue 49): `seed-data/` beside this module, in the sources (src/db/seed-data/)
 * and in the build alike (build.mjs copies it to dist/seed-data/, beside the bundle that holds this code).
 * Each file is checked when it is read; a file that does not pass names itself and the field.
 *
 * - `articles/*.md`: one demo article each, in the order of their names (the first is the oldest). A front
 *   matter, a JSON object between two lines of `---`, holds the fields of a post as the API takes them
 *   (title, summary, content_type, visibility, tags, categories; status, `published` unless it says
 *   `draft`); the Markdown after it, without its surrounding blank lines, is the content.
 * - `demo-author.json`: the account that owns the demo articles.
 * - `dashboards.json`: the dashboards (always seeded, demo or not) and each indicator's monthly values from
 *   `first_month` on.
 */
export const SEED_DATA_DIR = fileURLToPath(new URL('./seed-data/', import.meta.url));

export type DemoArticle = Required<PostWrite>;
export type DemoAuthor = v.InferOutput<typeof AuthorSchema>;
export interface SeedDashboard {
  slug: string;
  title: string;
  description: string;
  indicators: DashboardIndicator[];
}

const text = v.pipe(v.string(), v.nonEmpty('must not be empty'));
const { title, summary, content, content_type, visibility, tags, categories } = PostInputSchema.entries;
const FrontMatterSchema = v.strictObject({
  title,
  summary,
  content_type,
  visibility,
  status: v.optional(PostStatusSchema, 'published'),
  tags,
  categories,
});
const AuthorSchema = v.strictObject({
  username: text,
  email: v.pipe(v.string(), v.email('must be an email address')),
  first_name: text,
  last_name: v.string(),
});
const DashboardsSchema = v.strictObject({
  first_month: v.pipe(v.string(), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM')),
  dashboards: v.array(
    v.strictObject({
      slug: v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by -')),
      title: text,
      description: v.string(),
      indicators: v.array(
        v.strictObject({
          id: text,
          title: text,
          unit: v.string(),
          description: v.string(),
          values: v.array(v.number()),
        }),
      ),
    }),
  ),
});

/** A seed file that cannot be used: which one, and what is wrong where. */
export class SeedDataError extends Error {
  constructor(file: string, problem: string) {
    super(`seed data ${file}: ${problem}`);
    this.name = 'SeedDataError';
  }
}

/** `value` checked against `schema`, or a SeedDataError naming `file` and each field that is wrong. */
function checked<S extends v.GenericSchema>(schema: S, value: unknown, file: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(the whole)'}: ${issue.message}`);
  throw new SeedDataError(file, problems.join('; '));
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new SeedDataError(file, `cannot be read (${(error as Error).message})`);
  }
}

function readJson(file: string): unknown {
  const source = readText(file);
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new SeedDataError(file, `is not JSON (${(error as Error).message})`);
  }
}

/** One article file: its front matter and, as `content`, the Markdown after it. */
export function parseArticle(file: string, source: string): DemoArticle {
  const parts = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source.replace(/\r\n/g, '\n'));
  if (!parts)
    throw new SeedDataError(file, 'must begin with a front matter: a JSON object between --- lines');
  let front: unknown;
  try {
    front = JSON.parse(parts[1]!);
  } catch (error) {
    throw new SeedDataError(file, `front matter is not JSON (${(error as Error).message})`);
  }
  const fields = checked(FrontMatterSchema, front, file);
  return { ...fields, content: checked(v.object({ content }), { content: parts[2]!.trim() }, file).content };
}

export function loadArticles(dir = SEED_DATA_DIR): DemoArticle[] {
  const folder = path.join(dir, 'articles');
  let names: string[];
  try {
    names = fs.readdirSync(folder).filter((name) => name.endsWith('.md'));
  } catch (error) {
    throw new SeedDataError(folder, `cannot be read (${(error as Error).message})`);
  }
  if (names.length === 0) throw new SeedDataError(folder, 'holds no article (*.md)');
  return names.sort().map((name) => {
    const file = path.join(folder, name);
    return parseArticle(file, readText(file));
  });
}

export function loadAuthor(dir = SEED_DATA_DIR): DemoAuthor {
  const file = path.join(dir, 'demo-author.json');
  return checked(AuthorSchema, readJson(file), file);
}

/** The dashboards in their order, each indicator's values as points from `first_month` on, month by month. */
export function loadDashboards(dir = SEED_DATA_DIR): SeedDashboard[] {
  const file = path.join(dir, 'dashboards.json');
  const data = checked(DashboardsSchema, readJson(file), file);
  const [year, month] = data.first_month.split('-').map(Number) as [number, number];
  const period = (i: number) => {
    const m = month - 1 + i;
    return `${year + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
  };
  return data.dashboards.map(({ indicators, ...dashboard }) => ({
    ...dashboard,
    indicators: indicators.map(({ values, ...indicator }) => ({
      ...indicator,
      points: values.map((value, i) => ({ period: period(i), value })),
    })),
  }));
}
