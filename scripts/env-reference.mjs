// The configuration reference's check (issue 35): every environment variable the product's code and
// scripts read must be listed in docs/configuration.md, and every variable listed there must still be read
// somewhere, so the reference can neither miss a variable nor keep a stale one.
// `node scripts/env-reference.mjs` prints every variable with the files that read it;
// `--check` (meant for `pnpm lint`) fails naming each variable missing from the reference, and each stale one.
// Tests (*.test.*, *.spec.*) are not scanned: what they set or read is their own fixture. Test harnesses
// (vitest and Playwright configs, test/ helpers) are, as a person running the suites sets their variables.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const REFERENCE = path.join(ROOT, 'docs', 'configuration.md');

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
const SHELL = /\.sh$|(^|\/)\.ci\/run$/;
const SKIPPED = /(^|\/)(node_modules|dist|docs)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test-support\.ts$/;

const NAME = '[A-Z][A-Z0-9_]*';
/** Reads in JavaScript and TypeScript: process.env.X, env.X (a passed environment), env['X'], helpers. */
const SOURCE_PATTERNS = [
  new RegExp(`process\\.env\\??\\.(${NAME})\\b`, 'g'),
  new RegExp(`process\\.env\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`, 'g'),
  // An environment handed in as a parameter: env, processEnv, options.env, …
  new RegExp(`\\b(?:env|Env|processEnv)\\??\\.(${NAME})\\b`, 'g'),
  new RegExp(`\\b(?:env|Env|processEnv)\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`, 'g'),
  // The config modules' helpers, any function given the environment and a name: num(env, 'PORT', …)
  new RegExp(`\\b\\w+\\(\\s*\\w*[eE]nv\\s*,\\s*['"](${NAME})['"]`, 'g'),
];
/**
 * Dynamic names: in a file that reads env[key], a template `RATE_LIMIT_${name}` names every RATE_LIMIT_<NAME>;
 * the reference must list at least one variable of that prefix (it lists each).
 */
const DYNAMIC_READ = /\b(?:env|Env|processEnv)\[\s*[a-z]\w*\s*\]/;
const DYNAMIC = new RegExp(`\`(${NAME}_)\\$\\{`, 'g');
/** A table of variable names a config module reads by lookup (SITE_ENV_VARIABLES in @app/contracts). */
const NAME_TABLE = /export const \w+_ENV_VARIABLES = \{([\s\S]*?)\n\}/g;
/** Variables a shell script reads but does not set itself, and that the shell sets for everyone. */
const SHELL_OWN = new Set(['PATH', 'HOME', 'PWD', 'IFS', 'UID', 'EUID', 'BASH_SOURCE', 'LINENO']);

/** Every variable read in one file: { name, prefix } with prefix true for a dynamic RATE_LIMIT_* read. */
export function readsIn(text, file) {
  const found = new Set();
  if (SHELL.test(file)) {
    const assigned = new Set(
      [...text.matchAll(new RegExp(`(?:^|[\\s;(])(${NAME})=`, 'gm'))].map((m) => m[1]),
    );
    for (const m of text.matchAll(new RegExp(`\\$\\{?(${NAME})`, 'g')))
      if (!assigned.has(m[1]) && !SHELL_OWN.has(m[1])) found.add(m[1]);
    return { names: found, prefixes: new Set() };
  }
  for (const pattern of SOURCE_PATTERNS) for (const m of text.matchAll(pattern)) found.add(m[1]);
  // const { A, B: b } = process.env
  for (const m of text.matchAll(/\{([^{}]*)\}\s*=\s*process\.env\b/g))
    for (const part of m[1].split(',')) {
      const key = part.split(':')[0].trim();
      if (new RegExp(`^${NAME}$`).test(key)) found.add(key);
    }
  for (const m of text.matchAll(NAME_TABLE))
    for (const n of m[1].matchAll(new RegExp(`['"](${NAME})['"]`, 'g'))) found.add(n[1]);
  const prefixes = new Set(DYNAMIC_READ.test(text) ? [...text.matchAll(DYNAMIC)].map((m) => m[1]) : []);
  return { names: found, prefixes };
}

/** The files scanned: tracked and new (not ignored) files of the workspace, tests and builds left out. */
export function sourceFiles(root = ROOT) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return (
    listed
      .split('\n')
      .filter((file) => file && (SOURCE.test(file) || SHELL.test(file)) && !SKIPPED.test(file))
      // This file's own comments and patterns name variables it does not read.
      .filter((file) => file !== 'scripts/env-reference.mjs')
      .filter((file) => fs.existsSync(path.join(root, file)))
      .sort()
  );
}

/** variable -> files that read it; prefix -> files that read variables by that prefix. */
export function inventory(root = ROOT) {
  const names = new Map();
  const prefixes = new Map();
  const add = (map, key, file) => map.set(key, [...(map.get(key) ?? []), file]);
  for (const file of sourceFiles(root)) {
    const reads = readsIn(fs.readFileSync(path.join(root, file), 'utf8'), file);
    for (const name of reads.names) add(names, name, file);
    for (const prefix of reads.prefixes) add(prefixes, prefix, file);
  }
  return { names, prefixes };
}

/** The variables the reference lists: the first cell of each table row, in backticks. */
export function documented(markdown) {
  const names = new Set();
  for (const line of markdown.split('\n')) {
    const m = line.match(new RegExp(`^\\|\\s*\`(${NAME})\`\\s*\\|`));
    if (m) names.add(m[1]);
  }
  return names;
}

/** What is wrong with the reference, one line each; empty when it matches the code. */
export function problems({ names, prefixes }, listed) {
  const out = [];
  for (const [name, files] of [...names].sort(([a], [b]) => a.localeCompare(b)))
    if (!listed.has(name))
      out.push(`${name} is read by ${files.join(', ')} but not listed in docs/configuration.md`);
  for (const [prefix, files] of prefixes)
    if (![...listed].some((name) => name.startsWith(prefix)))
      out.push(`${prefix}<NAME> is read by ${files.join(', ')} but no ${prefix}* is listed`);
  const read = (name) => names.has(name) || [...prefixes.keys()].some((prefix) => name.startsWith(prefix));
  for (const name of [...listed].sort())
    if (!read(name)) out.push(`${name} is listed in docs/configuration.md but nothing reads it (stale)`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = inventory();
  if (process.argv.includes('--check')) {
    const listed = documented(fs.existsSync(REFERENCE) ? fs.readFileSync(REFERENCE, 'utf8') : '');
    const wrong = problems(found, listed);
    if (wrong.length > 0) {
      console.error(`docs/configuration.md does not match the code:\n  ${wrong.join('\n  ')}`);
      process.exit(1);
    }
    console.log(`docs/configuration.md lists all ${listed.size} environment variables the code reads`);
  } else {
    for (const [name, files] of [...found.names].sort(([a], [b]) => a.localeCompare(b)))
      console.log(`${name.padEnd(34)} ${files.join(' ')}`);
    for (const [prefix, files] of found.prefixes)
      console.log(`${`${prefix}*`.padEnd(34)} ${files.join(' ')}`);
  }
}
