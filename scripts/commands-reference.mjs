// The commands page's check (issue 48): docs/everyday-commands.md says it lists every root `pnpm` script, so
// every script in the root package.json must have a row there (its first cell's command starts with
// `pnpm <script>`), and every `pnpm <name>` row must still be a root script: the page can neither miss a
// command nor keep one that is gone. As scripts/env-reference.mjs does for docs/configuration.md.
// `node scripts/commands-reference.mjs` prints each script with its row; `--check` (part of `pnpm lint`)
// fails naming each script missing from the page and each stale row.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const PAGE = path.join(ROOT, 'docs', 'everyday-commands.md');

/** The root package.json's script names. */
export function rootScripts(packageJson) {
  return Object.keys(JSON.parse(packageJson).scripts ?? {});
}

/**
 * The scripts the page's table names: the first cell of each row whose command (its first code span) is
 * `pnpm <name>` (not `pnpm --filter …`, a package's own script), with the row's line number.
 */
export function documentedScripts(markdown) {
  const rows = new Map();
  for (const [index, line] of markdown.split('\n').entries()) {
    if (!line.startsWith('|')) continue;
    const firstCell = line.slice(1).split(/(?<!\\)\|/)[0];
    const command = firstCell.match(/`([^`]*)`/)?.[1];
    const name = command?.match(/^pnpm ([a-z][\w:-]*)(?=\s|\\|$)/)?.[1];
    if (name && !rows.has(name)) rows.set(name, index + 1);
  }
  return rows;
}

/** Scripts without a row, and rows whose script is gone. */
export function compare(scripts, rows) {
  return {
    missing: scripts.filter((name) => !rows.has(name)),
    stale: [...rows.keys()].filter((name) => !scripts.includes(name)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scripts = rootScripts(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const rows = documentedScripts(fs.readFileSync(PAGE, 'utf8'));
  const { missing, stale } = compare(scripts, rows);
  const page = path.relative(ROOT, PAGE);
  if (process.argv.includes('--check')) {
    if (missing.length + stale.length > 0) {
      console.error(`${page} does not match the root package.json's scripts:`);
      for (const name of missing)
        console.error(
          `  pnpm ${name} is a root script but has no row in ${page} (add one: | \`pnpm ${name}\` | what it does |)`,
        );
      for (const name of stale)
        console.error(`  pnpm ${name} has a row (line ${rows.get(name)}) but is no root script any more`);
      process.exit(1);
    }
    console.log(`${page} lists all ${scripts.length} root scripts`);
  } else {
    for (const name of scripts)
      console.log(`${`pnpm ${name}`.padEnd(24)} ${rows.has(name) ? `${page}:${rows.get(name)}` : 'MISSING'}`);
  }
}
