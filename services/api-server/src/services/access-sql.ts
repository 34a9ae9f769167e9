import type { PostStatus, Visibility } from '@app/contracts';
import { isAdmin, openableVisibilities, VISIBILITIES } from '@app/contracts';
import type { DialectSql } from '../db/dialect';
import type { Caller } from './accounts';

/**
 * The access rule of lists and search as SQL, written for one kind of caller and one kind of query at a
 * time (docs/decisions/0023-cards-as-stored-json.md). One general statement that held every case behind
 * parameters (`@admin = 1 OR …`, `@tag IS NULL OR …`, the openable visibilities read with json_each three
 * times) spent about 0.1–0.2 ms of each execution on branches that could not apply. A shape is what
 * decides the SQL text; the values stay parameters. Each shape is prepared once (PostReader caches by
 * `shapeKey`), and there are few: the role tiers times the optional filters used.
 */
export interface QueryShape {
  /** An administrator sees every post in lists (search has no such bypass). */
  admin: boolean;
  /** A guest has no posts of their own. */
  guest: boolean;
  /** The visibilities the caller may open, inlined as literals: our own constants, never input. */
  open: readonly Visibility[];
  /** Also posts above the caller's tier, as teasers. */
  teasers: boolean;
  /** Which optional filters the query has (their values are parameters). */
  vis: boolean;
  contentType: boolean;
  tag: boolean;
  category: boolean;
}

export interface ShapeFilters {
  visibility: readonly Visibility[] | null;
  contentType: string | null;
  tag: string | null;
  category: string | null;
  teasers?: boolean;
}

export function queryShape(caller: Caller | null, f: ShapeFilters): QueryShape {
  const roles = caller ? caller.roles : null;
  return {
    admin: isAdmin(roles),
    guest: caller === null,
    open: openableVisibilities(roles),
    teasers: f.teasers === true,
    vis: f.visibility !== null,
    contentType: f.contentType !== null,
    tag: f.tag !== null,
    category: f.category !== null,
  };
}

export const shapeKey = (s: QueryShape) => JSON.stringify(s);

const literal = (value: string) => {
  if (!/^[a-z0-9_-]+$/.test(value)) throw new Error(`not a visibility: ${value}`);
  return `'${value}'`;
};

/**
 * A caller may see a post when they wrote it, administer the site (lists only), or it is published at an
 * openable tier. Always TRUE or FALSE (never NULL, also for a post whose author is gone): a teaser is its
 * negation.
 */
export function visibleSql(s: QueryShape, { adminSeesAll }: { adminSeesAll: boolean }): string {
  if (adminSeesAll && s.admin) return 'TRUE';
  const parts: string[] = [];
  if (!s.guest) parts.push('COALESCE(p.author_id = @uid, FALSE)');
  if (s.open.length > 0) {
    parts.push(`(p.status = 'published' AND p.visibility IN (${s.open.map(literal).join(', ')}))`);
  }
  return parts.length > 0 ? `(${parts.join(' OR ')})` : 'FALSE';
}

/**
 * A teaser: asked for, published, above the caller's tier, never private. The visibility filter chooses
 * among the posts the caller may open (SPEC §6's Explore request stays as it is); teasers come on top.
 * Null when this shape asks for none (or the caller sees everything).
 */
export function teaserSql(s: QueryShape, visible: string): string | null {
  if (!s.teasers || visible === 'TRUE') return null;
  return `(p.status = 'published' AND p.visibility <> 'private' AND NOT ${visible})`;
}

/** Who sees a row: visible rows (narrowed by the visibility filter), teasers on top when asked. */
export function accessSql(s: QueryShape, visible: string, d: DialectSql): string {
  const narrowed = s.vis ? `(${visible} AND p.visibility ${d.inJsonArray('vis')})` : visible;
  const teaser = teaserSql(s, visible);
  return teaser ? `(${narrowed} OR ${teaser})` : narrowed;
}

/** 1 for a row that is a teaser, else 0. */
export const lockedSql = (s: QueryShape, visible: string) =>
  teaserSql(s, visible) ? `CASE WHEN ${visible} THEN 0 ELSE 1 END` : '0';

/** The optional filters shared by lists and search (the search text itself is matched by FTS5). */
export function filtersSql(s: QueryShape): string {
  const parts: string[] = [];
  if (s.contentType) parts.push('AND p.content_type = @content_type');
  if (s.tag) {
    parts.push(
      "AND EXISTS (SELECT 1 FROM post_terms t WHERE t.post_id = p.id AND t.kind = 'tag' AND t.name = @tag)",
    );
  }
  if (s.category) {
    parts.push(
      "AND EXISTS (SELECT 1 FROM post_terms t WHERE t.post_id = p.id AND t.kind = 'category' AND t.name = @category)",
    );
  }
  return parts.join('\n  ');
}

/**
 * A list's shape: besides the query shape, its status and the visibility filter's values, which are then
 * literals too (the filter is parsed against contracts' visibilities before it gets here). Knowing them when
 * the text is written lets the rule collapse to index-only tests on `p.visibility` and `p.author_id`
 * (issue 36: the general form, with the filter read through json_each and `visible` spelled out three
 * times, cost ~100 µs of Explore's ~220 µs statement at 100,000 posts).
 */
export interface ListShape extends QueryShape {
  status: PostStatus;
  visibility: readonly Visibility[] | null;
}

const inList = (column: string, values: readonly Visibility[]) =>
  values.length === 0 ? null : `${column} IN (${values.map(literal).join(', ')})`;

/**
 * The list rule of `accessSql` and `lockedSql`, worked out for one list shape. A row of a published list is
 * listed when it is visible and passes the filter, or is a teaser: not the caller's, above their tier, not
 * private. With A = (openable ∩ filter) ∪ teaser tiers, that is: others' posts whose visibility is in A, and
 * the caller's own whose visibility is in the filter. A teaser is a listed row of a teaser tier that is not
 * the caller's. Drafts are only ever the caller's own. An administrator's list holds everything (the filter
 * still applies). test/list-shapes.test.ts checks every role × filter against a model written from canOpen.
 */
export function listAccess(s: ListShape): { where: string; locked: string } {
  const all = VISIBILITIES.values;
  const filter = s.visibility ?? all;
  const filtered = s.visibility ? inList('p.visibility', filter) : null;
  if (s.admin) return { where: filtered ?? 'TRUE', locked: '0' };
  const own = s.guest ? null : 'COALESCE(p.author_id = @uid, FALSE)';
  if (s.status !== 'published') {
    return { where: own ? (filtered ? `(${own} AND ${filtered})` : own) : 'FALSE', locked: '0' };
  }
  const teaserTiers = s.teasers ? all.filter((v) => !s.open.includes(v) && v !== 'private') : [];
  const listedTiers = [...s.open.filter((v) => filter.includes(v)), ...teaserTiers];
  const parts: string[] = [];
  const both = inList('p.visibility', listedTiers.filter((v) => filter.includes(v)) as Visibility[]);
  const othersOnly = inList('p.visibility', listedTiers.filter((v) => !filter.includes(v)) as Visibility[]);
  const ownOnly = inList(
    'p.visibility',
    filter.filter((v) => !listedTiers.includes(v)),
  );
  if (both) parts.push(both);
  if (othersOnly) parts.push(own ? `(${othersOnly} AND NOT ${own})` : othersOnly);
  if (ownOnly && own) parts.push(`(${ownOnly} AND ${own})`);
  const teaser = inList('p.visibility', teaserTiers);
  const locked = teaser ? `CASE WHEN ${teaser}${own ? ` AND NOT ${own}` : ''} THEN 1 ELSE 0 END` : '0';
  return { where: parts.length > 0 ? `(${parts.join(' OR ')})` : 'FALSE', locked };
}

/** A basic member's Explore (public + members, teasers on): the shape the benchmark prints plans for. */
export const EXPLORE_SHAPE: ListShape = {
  status: 'published',
  visibility: ['public', 'members_only'],
  admin: false,
  guest: false,
  open: ['public', 'members_only'],
  teasers: true,
  vis: true,
  contentType: false,
  tag: false,
  category: false,
};
