// `pnpm lint`: docs/product/ARCHITECTURE.md's "The shape" is drawn from the tree (issue 35). Every workspace
// package (pnpm-workspace.yaml's folders) must be named there under its layer's folder, and every package it
// names under a layer folder must exist: a new package, a moved one or a removed one fails until the drawing
// says so. `node scripts/architecture-shape.mjs` prints what it compared.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = 'docs/product/ARCHITECTURE.md';

/** The workspace's package folders, relative to the root, from pnpm-workspace.yaml's `packages:` globs. */
export function workspaceFolders(root = ROOT) {
  const yaml = fs.readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [];
  for (const line of yaml.slice(yaml.indexOf('packages:')).split('\n').slice(1)) {
    const m = /^\s+-\s+(\S+)/.exec(line);
    if (!m) break;
    globs.push(m[1]);
  }
  const found = [];
  for (const glob of globs) {
    const [first, second] = glob.split('/');
    const matches = (pattern, name) =>
      pattern.includes('*') ? name.startsWith(pattern.slice(0, pattern.indexOf('*'))) : name === pattern;
    for (const top of fs.readdirSync(root)) {
      if (!matches(first, top) || !fs.statSync(path.join(root, top)).isDirectory()) continue;
      if (second === undefined) {
        if (fs.existsSync(path.join(root, top, 'package.json'))) found.push(top);
        continue;
      }
      for (const child of fs.readdirSync(path.join(root, top))) {
        if (matches(second, child) && fs.existsSync(path.join(root, top, child, 'package.json')))
          found.push(`${top}/${child}`);
      }
    }
  }
  return found.sort();
}

/** The folders the shape's drawing names: `top/` at the left edge, `child/` indented two spaces below it. */
export function drawnFolders(markdown) {
  const start = markdown.indexOf('## The shape');
  const open = markdown.indexOf('```', start);
  const close = markdown.indexOf('```', open + 3);
  const drawn = new Set();
  let top = null;
  for (const line of markdown.slice(open + 3, close).split('\n')) {
    const topMatch = /^([A-Za-z0-9._-]+)\/(\s|$)/.exec(line);
    if (topMatch) {
      top = topMatch[1];
      drawn.add(top);
      continue;
    }
    const childMatch = /^ {2}([A-Za-z0-9._-]+)\/(\s|$)/.exec(line);
    if (childMatch && top) drawn.add(`${top}/${childMatch[1]}`);
  }
  return drawn;
}

export function compareShape(root = ROOT) {
  const folders = workspaceFolders(root);
  const drawn = drawnFolders(fs.readFileSync(path.join(root, DOC), 'utf8'));
  const layers = new Set(folders.filter((f) => f.includes('/')).map((f) => f.split('/')[0]));
  const missing = folders.filter((f) => !drawn.has(f));
  const stale = [...drawn].filter(
    (f) => f.includes('/') && layers.has(f.split('/')[0]) && !folders.includes(f),
  );
  return { folders, missing, stale };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { folders, missing, stale } = compareShape();
  if (missing.length || stale.length) {
    console.error(`${DOC}'s shape does not match the workspace:`);
    for (const f of missing) console.error(`  ${f}/ is a workspace package but the shape does not name it`);
    for (const f of stale) console.error(`  ${f}/ is in the shape but no such package exists`);
    process.exit(1);
  }
  console.log(`${DOC}'s shape names all ${folders.length} workspace packages`);
}
