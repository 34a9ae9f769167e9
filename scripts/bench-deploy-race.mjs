// `pnpm bench:deploy-race [--count 100] [--database sqlite|postgres|both]`: two CLI processes race pointer
// changes of one deployment through two API instances (docs/decisions/0030-deploy-control-plane.md).
//
// Per database: two API instances (the compiled server, scripts/api-process.mjs) on the same database,
// release store and deploy folder, in a temporary run folder; two synthetic releases of mf-research, the
// first stable in production and the second a canary; two deploy tokens (race-a, race-b) made with
// `pnpm admin deploy-token create`; then two processes (scripts/bench/deploy-race/worker.mjs), one per
// instance, each making --count changes of the canary's percentage with the CLI's own code, sending again
// after every 412 until its changes have landed. Afterwards, through the API: the environment's revision and
// its audit log. A lost update is a change that answered 2xx and is not in the audit log, or two changes that
// answered the same revision. Prints a table; exits 1 if anything was lost or failed otherwise.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { postgresBinDir, startLocalPostgres } from '@app/local-postgres';
import { startApi } from './api-process.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { count: { type: 'string', default: '100' }, database: { type: 'string', default: 'both' } },
});
const COUNT = Number(values.count);
const release = await import(pathToFileURL(path.join(ROOT, 'tooling', 'release', 'src', 'index.ts')).href);
const log = (line) => console.error(`[race] ${line}`);

/** A build of mf-research as small as a build can be: an entry, its manifest; `mark` makes it another version. */
function syntheticDist(dir, mark) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `/* race ${mark} */ var mf_research = {};\n`);
  fs.writeFileSync(
    path.join(dir, 'mf-manifest.json'),
    JSON.stringify({
      name: 'mf_research',
      metaData: { buildInfo: { buildVersion: '0.0.1' } },
      shared: [],
      exposes: [],
    }),
  );
  // What its code is (issue 45): it shares nothing and its App takes no props, built with the shell's runtime.
  const shellContract = path.join(ROOT, 'shell', 'dist', 'mf-compat.json');
  const runtime = fs.existsSync(shellContract)
    ? JSON.parse(fs.readFileSync(shellContract, 'utf8')).federationRuntime
    : '2.9.2';
  fs.writeFileSync(
    path.join(dir, 'mf-compat.json'),
    JSON.stringify({
      schema: 1,
      container: 'mf_research',
      federationRuntime: runtime,
      provides: {},
      requires: {},
      exposes: { './App': { type: '(() => unknown)', props: [{}] } },
      calls: {},
    }),
  );
  return dir;
}

function createToken(env, name) {
  const out = execFileSync(
    'pnpm',
    [
      '--silent',
      'admin',
      'deploy-token',
      'create',
      '--name',
      name,
      '--remote',
      'mf-research',
      '--env',
      'production',
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  const token = out.split('\n').find((line) => /^mfd_/.test(line.trim()));
  if (!token) throw new Error(`no token in: ${out}`);
  return token.trim();
}

function runWorker(url, token, label) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'scripts', 'bench', 'deploy-race', 'worker.mjs'),
        url,
        String(COUNT),
        label,
      ],
      { cwd: ROOT, env: { ...process.env, DEPLOY_TOKEN: token }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)))
        : reject(new Error(`${label} exited ${code}`)),
    );
  });
}

async function race(database, runDir) {
  const ports = [4191, 4192];
  const env = {
    RELEASE_STORE_DIR: path.join(runDir, 'releases'),
    DEPLOY_DIR: path.join(runDir, 'deploy'),
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    ...database.env,
  };
  const apis = [];
  try {
    // One after the other: the first runs the migrations.
    for (const port of ports) apis.push(await startApi({ port, env, quiet: true }));
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    const admin = release.createContext({
      to: urls[0],
      env: 'production',
      processEnv: { DEPLOY_DIR: env.DEPLOY_DIR },
      log: () => {},
    });
    const versions = [];
    for (const mark of ['one', 'two']) {
      const dist = syntheticDist(path.join(runDir, `dist-${mark}`), mark);
      const { info } = await release.release(
        { remote: 'mf-research', root: ROOT, dist, build: false, force: true },
        admin.client,
      );
      versions.push(info.version);
    }
    await release.bootstrap(admin, { remote: 'mf-research', version: versions[0], replace: true });
    await release.startCanary(admin, { remote: 'mf-research', version: versions[1], percent: 1 });
    const before = (await admin.client.state('production')).revision;
    const tokens = [createToken(env, 'race-a'), createToken(env, 'race-b')];
    log(`${database.name}: racing ${COUNT} + ${COUNT} changes from revision ${before}`);
    const [a, b] = await Promise.all([
      runWorker(urls[0], tokens[0], 'race-a'),
      runWorker(urls[1], tokens[1], 'race-b'),
    ]);
    const after = await admin.client.state('production');
    const history = await admin.client.history('mf-research', 1000, 'production');
    const audited = (label) => history.entries.filter((e) => e.action === 'set' && e.actor === label).length;
    const revisions = [...a.landed, ...b.landed].map((l) => l.revision).sort((x, y) => x - y);
    const distinct = new Set(revisions).size;
    const contiguous = revisions.every((r, i) => r === before + 1 + i);
    const last = [...a.landed, ...b.landed].sort((x, y) => y.revision - x.revision)[0];
    const finalPercent = after.manifest.remotes['mf-research']?.canary?.percent;
    const lost =
      a.landed.length -
      audited('race-a') +
      (b.landed.length - audited('race-b')) +
      (revisions.length - distinct) +
      (after.revision - before - revisions.length);
    return {
      database: database.name,
      racers: [a, b].map((r) => ({
        label: r.label,
        landed: r.landed.length,
        conflicts: r.conflicts,
        failures: r.failures,
        perSecond: (r.landed.length / r.ms) * 1000,
        ms: r.ms,
      })),
      before,
      after: after.revision,
      audited: audited('race-a') + audited('race-b'),
      lost,
      contiguous,
      finalMatches: finalPercent === last?.percent,
    };
  } finally {
    for (const api of apis) api.kill('SIGTERM');
  }
}

const databases = [];
const wanted = values.database;
const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-race-'));
// PostgreSQL runs as its own user when we are root (testing/local-postgres): it must enter the folder.
fs.chmodSync(runRoot, 0o755);
let postgres = null;
if (wanted === 'sqlite' || wanted === 'both')
  databases.push({ name: 'SQLite', env: { DB_PATH: path.join(runRoot, 'sqlite', 'app.db') } });
if (wanted === 'postgres' || (wanted === 'both' && postgresBinDir())) {
  postgres = startLocalPostgres({ dir: path.join(runRoot, 'pg'), port: 55439, fast: true });
  databases.push({ name: 'PostgreSQL', env: { DATABASE_URL: postgres.ensureDatabase('race') } });
}

const results = [];
let failed = false;
try {
  for (const database of databases) {
    const runDir = path.join(runRoot, database.name.toLowerCase());
    fs.mkdirSync(runDir, { recursive: true });
    results.push(await race(database, runDir));
  }
} finally {
  postgres?.stop();
}

console.log(
  `\nTwo CLI processes, ${COUNT} changes each, through two API instances (${new Date().toISOString().slice(0, 10)})\n`,
);
console.log('| database | racer | changes landed | 412s (sent again) | other failures | changes/s |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  for (const racer of r.racers) {
    console.log(
      `| ${r.database} | ${racer.label} | ${racer.landed} | ${racer.conflicts} | ${racer.failures.length} | ${racer.perSecond.toFixed(0)} |`,
    );
    if (racer.failures.length > 0) failed = true;
  }
}
console.log(
  '\n| database | revision before → after | audit entries | lost updates | revisions in sequence | final state = last change |',
);
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.database} | ${r.before} → ${r.after} | ${r.audited} | ${r.lost} | ${r.contiguous ? 'yes' : 'no'} | ${r.finalMatches ? 'yes' : 'no'} |`,
  );
  if (r.lost !== 0 || !r.contiguous || !r.finalMatches) failed = true;
}
for (const r of results)
  for (const racer of r.racers) for (const f of racer.failures) log(`${r.database} ${racer.label}: ${f}`);
if (!failed) fs.rmSync(runRoot, { recursive: true, force: true });
else log(`kept ${runRoot}`);
process.exitCode = failed ? 1 : 0;
