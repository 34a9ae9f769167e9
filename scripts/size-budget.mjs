// `pnpm size`: the initial JavaScript of the shell and of each remote, gzip-compressed, against the budgets in
// size-budget.json. Reads the production builds (`pnpm build` first); bytes only, no browser, deterministic.
// Exit 1 with the table when an app is over its budget (or a build cannot be read); the table otherwise.
//   node scripts/size-budget.mjs           check
//   node scripts/size-budget.mjs --files   also list the files counted per app
//   node scripts/size-budget.mjs --write   set every budget to the measured size + 5 % (lower them as the
//                                          size comes down; raising one is a decision for review)
//
// What counts (each file once per app; gzip with zlib's default level 6, as the edge sends it):
// - shell: the scripts dist/index.html loads (main.js), the chunks main.js's entry module requests (the
//   async boundary `import('./bootstrap')`), and the chunks each shared module's `get()` requests in
//   main.js's federation runtime (`initOptions.shared`). The shell is the host: with
//   shareStrategy 'loaded-first' it provides every shared module itself, so all of them load before
//   anything renders. This is the set Chromium fetches for `/` before the first remote request.
// - each remote: remoteEntry.js (name from dist/mf-manifest.json), the sync JS of its exposed `./App`
//   (mf-manifest.json `exposes[].assets.js.sync`), and the chunks each shared module's `get()` requests
//   in remoteEntry.js. Under the shell a visitor gets the shared modules from the shell, so they are
//   shown in their own column; they count because the remote ships them (alone or on a version
//   mismatch) and because its shared config decides their size.
// Chunk ids read from the runtime that have no file in dist (`.e(71)` of a consume-only chunk) are not
// files and are skipped. mf-manifest.json lists some shared chunks under two names with the same content
// (webpack emits them twice): only the one the runtime requests counts; the manifest is a cross-check.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { APPS, ROOT } from './apps.mjs';

const BUDGET_FILE = path.join(ROOT, 'size-budget.json');
const MARGIN = 1.05;
const WRITE = process.argv.includes('--write');
const FILES = process.argv.includes('--files');

class BuildError extends Error {}

const kib = (bytes) => (bytes / 1024).toFixed(1);
const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file)).length;

/** Chunk ids named by `<req>.e(<id>)` calls in a piece of minified webpack runtime. */
const chunkIdsIn = (code) => [...code.matchAll(/[\w$]\.e\((\d+)\)/g)].map((m) => m[1]);

/**
 * Named chunks in a webpack runtime's file-name function: `(858===e?"shared-libraries":e)` for one,
 * `({858:"shared-libraries",…}[e]||e)` for several (the shell's host split chunks, tooling/webpack).
 */
function chunkNames(code) {
  const names = new Map();
  for (const m of code.matchAll(/\b(\d+)===[\w$]\?"([^"]+)"/g)) names.set(m[1], m[2]);
  for (const m of code.matchAll(/\(\{((?:\d+:"[^"]+",?)+)\}\)?\[[\w$]\]\|\|[\w$]/g))
    for (const pair of m[1].matchAll(/(\d+):"([^"]+)"/g)) names.set(pair[1], pair[2]);
  return names;
}

/**
 * The file a chunk id is emitted as (`<id or name>.<hash>.js`), or undefined for consume-only ids.
 * `names`: the runtime's named chunks (chunkNames).
 */
function chunkFile(files, id, names) {
  const stem = names.get(id) ?? id;
  return files.find(
    (f) => f === `${stem}.js` || (f.startsWith(`${stem}.`) && f.endsWith('.js') && f.split('.').length === 3),
  );
}

/** The body of module `id` in a minified webpack bundle (`{2274(e,t,r){...}` or `,2274:function(...){...}`). */
function moduleBody(code, id) {
  const start = code.search(
    new RegExp(`[{,]${id}(?:\\([^)]*\\)|:\\s*(?:function)?\\s*\\([^)]*\\)\\s*=?>?)\\s*\\{`),
  );
  if (start < 0) return undefined;
  let depth = 0;
  for (let i = code.indexOf('{', start + 1); i < code.length; i++) {
    if (code[i] === '{') depth++;
    else if (code[i] === '}' && --depth === 0) return code.slice(start, i + 1);
  }
  return undefined;
}

/** Chunk ids the entry module of a webpack runtime file requests (the async boundary of src/index.ts). */
function entryChunkIds(code, label) {
  const tail = code.replace(/\s*\/\/# sourceMappingURL=\S+\s*$/, '');
  const entry = tail.match(/[\w$]+\((\d+)\)\s*\}\)\(\);?$/);
  const body = entry && moduleBody(code, entry[1]);
  if (!body)
    throw new BuildError(`${label}: cannot find the entry module (the startup call at the end of the file)`);
  const ids = chunkIdsIn(body);
  if (ids.length === 0)
    throw new BuildError(`${label}: the entry module requests no chunks (is it still an async boundary?)`);
  return ids;
}

/** Shared module name -> chunk ids its `get()` requests, from the runtime's `initOptions.shared`. */
function sharedChunkIds(code, label) {
  const at = code.indexOf('initOptions.shared=');
  if (at < 0) throw new BuildError(`${label}: no federation runtime (initOptions.shared) found`);
  const result = new Map();
  // Keys are quoted unless they are identifiers (`react:[...]`).
  const entries = /(?:"([^"]+)"|([A-Za-z_$][\w$]*)):\[\{version:"[^"]*",get:\(\)=>(.*?)\.then\(/g;
  for (const m of code.slice(at).matchAll(entries)) {
    const name = m[1] ?? m[2];
    result.set(name, [...(result.get(name) ?? []), ...chunkIdsIn(m[3])]);
  }
  if (result.size === 0)
    throw new BuildError(`${label}: cannot read the shared modules of initOptions.shared`);
  return result;
}

/** Checks the runtime's shared list against mf-manifest.json, so a parsing miss cannot pass silently. */
function crossCheckShared(manifest, shared, fileOf, label) {
  for (const entry of manifest.shared ?? []) {
    const ids = shared.get(entry.name);
    if (!ids)
      throw new BuildError(
        `${label}: shared module ${entry.name} is in mf-manifest.json, not in the runtime`,
      );
    const runtimeFiles = new Set(ids.map(fileOf));
    const sync = entry.assets?.js?.sync ?? [];
    if (sync.length > 0 && !sync.some((f) => runtimeFiles.has(f)))
      throw new BuildError(
        `${label}: none of ${entry.name}'s manifest chunks (${sync.join(', ')}) is requested by the runtime`,
      );
  }
}

function readJson(file) {
  if (!fs.existsSync(file))
    throw new BuildError(`${path.relative(ROOT, file)} is missing: run pnpm build first`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The initial JS of one app: { parts: { entry, app, shared } -> Set of files, bytes per part, total }. */
export function measureApp(app) {
  const dist = app.dist;
  const manifest = readJson(path.join(dist, 'mf-manifest.json'));
  const files = fs.readdirSync(dist).filter((f) => f.endsWith('.js'));
  const parts = { entry: [], app: [], shared: [] };
  let runtimeFile;
  if (app.name === 'shell') {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)]
      .map((m) => m[1])
      .filter((src) => !/^(https?:)?\/\//.test(src))
      .map((src) => src.replace(/^\.?\//, '').split('?')[0]);
    if (scripts.length === 0) throw new BuildError('shell/dist/index.html loads no script');
    parts.entry.push(...scripts);
    runtimeFile = scripts.find((s) =>
      fs.readFileSync(path.join(dist, s), 'utf8').includes('initOptions.shared='),
    );
    if (!runtimeFile) throw new BuildError('shell: no script of index.html carries the federation runtime');
  } else {
    const remoteEntry = manifest.metaData?.remoteEntry;
    if (!remoteEntry?.name) throw new BuildError(`${app.name}: mf-manifest.json names no remoteEntry`);
    runtimeFile = path.posix.join(remoteEntry.path ?? '', remoteEntry.name);
    parts.entry.push(runtimeFile);
    const expose = (manifest.exposes ?? []).find((e) => e.path === './App');
    if (!expose) throw new BuildError(`${app.name}: mf-manifest.json exposes no ./App`);
    parts.app.push(...(expose.assets?.js?.sync ?? []));
  }
  const code = fs.readFileSync(path.join(dist, runtimeFile), 'utf8');
  const names = chunkNames(code);
  const fileOf = (id) => chunkFile(files, id, names);
  if (app.name === 'shell')
    parts.entry.push(...entryChunkIds(code, `shell/dist/${runtimeFile}`).map(fileOf).filter(Boolean));
  const shared = sharedChunkIds(code, `${app.name}/dist/${runtimeFile}`);
  crossCheckShared(manifest, shared, fileOf, app.name);
  parts.shared.push(...[...shared.values()].flat().map(fileOf).filter(Boolean));

  // Each file once: a shared module's chunk counts as shared, whoever else requests it (the shell's entry
  // requests its one chunk of libraries, tooling/webpack hostSplitChunks; a remote's ./App may request one).
  const seen = new Set();
  const bytes = {};
  for (const part of ['shared', 'entry', 'app']) {
    parts[part] = [...new Set(parts[part])].filter((f) => !seen.has(f));
    for (const f of parts[part]) {
      seen.add(f);
      if (!fs.existsSync(path.join(dist, f)))
        throw new BuildError(`${app.name}: ${f} is named but not in dist`);
    }
    bytes[part] = parts[part].reduce((sum, f) => sum + gzipSize(path.join(dist, f)), 0);
  }
  return { parts, bytes, total: bytes.entry + bytes.app + bytes.shared, files: seen.size };
}

function printTable(rows) {
  const head = ['app', 'entry', './App', 'shared', 'total', 'budget', 'files', ''];
  const lines = rows.map((r) => [
    r.name,
    kib(r.bytes.entry),
    r.name === 'shell' ? '-' : kib(r.bytes.app),
    kib(r.bytes.shared),
    kib(r.total),
    r.budget === undefined ? '-' : kib(r.budget),
    String(r.files),
    r.status,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ');
  console.log(fmt(head).trimEnd());
  for (const l of lines) console.log(fmt(l).trimEnd());
  console.log(
    'KiB gzip. shell entry = index.html scripts + the chunks of its async boundary; remote entry = remoteEntry.js;\n' +
      './App = its sync chunks; shared = the chunks of every shared module (the shell provides them at run time).',
  );
}

function main() {
  const budgets = fs.existsSync(BUDGET_FILE)
    ? JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8'))
    : { gzipBytes: {} };
  const rows = APPS.map((app) => {
    const m = measureApp(app);
    const budget = budgets.gzipBytes?.[app.name];
    let status = 'ok';
    if (budget === undefined) status = WRITE ? 'new' : 'NO BUDGET';
    else if (m.total > budget) status = `OVER by ${kib(m.total - budget)} KiB`;
    return { name: app.name, ...m, budget, status };
  });
  if (WRITE) {
    const next = Object.fromEntries(rows.map((r) => [r.name, Math.ceil((r.total * MARGIN) / 100) * 100]));
    fs.writeFileSync(
      BUDGET_FILE,
      `${JSON.stringify({ _doc: budgets._doc ?? DOC, gzipBytes: next }, null, 2)}\n`,
    );
    for (const r of rows) {
      r.budget = next[r.name];
      r.status = 'written';
    }
    printTable(rows);
    console.log(`\nwrote ${path.relative(ROOT, BUDGET_FILE)}: budgets = measured size + 5 %`);
    return;
  }
  printTable(rows);
  if (FILES)
    for (const r of rows)
      console.log(
        `\n${r.name}\n${Object.entries(r.parts)
          .map(([part, list]) => `  ${part}: ${list.join(' ')}`)
          .join('\n')}`,
      );
  const failed = rows.filter((r) => r.status !== 'ok');
  if (failed.length > 0) {
    console.error(
      `\nsize budget exceeded: ${failed.map((r) => `${r.name} (${r.status})`).join(', ')}.\n` +
        'Make the initial JS smaller, or raise the budget in size-budget.json as a reviewed decision.',
    );
    process.exit(1);
  }
  console.log('\nall apps within their size budgets (size-budget.json; lower a budget when an app shrinks)');
}

const DOC =
  'Initial JS per app, gzip bytes (scripts/size-budget.mjs says what counts). Checked by `pnpm size` in `pnpm test`.';

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main();
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    console.error(`size budget: ${error.message}`);
    process.exit(1);
  }
}
