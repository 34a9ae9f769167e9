// The chaos run (issue 32, `pnpm test:chaos`): the cluster on ports of its own with a fresh database, under
// mixed load through nginx (reads of the API and pages; writes that keep every acknowledged post id), and
// in turn: kill -9 of one API instance, kill -9 of one edge instance, kill -9 of PostgreSQL (the runner
// starts it again), and a rolling reload. Prints the counts per phase and checks the issue's targets:
//   - 0 failed reads outside the PostgreSQL window;
//   - in the PostgreSQL window, only 503s with Retry-After; full service within 5 s of its return;
//   - every acknowledged write present afterwards.
// Exits 1 when a target is missed. Ports: nginx 8380, API 4301/4302, edge 4311/4312, PostgreSQL 5443.
// Run: `pnpm test:chaos` (needs nginx and PostgreSQL: `bash scripts/install.sh --nginx --postgres`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-chaos-'));
fs.chmodSync(work, 0o755);
process.env.RELEASE_STORE_DIR = path.join(work, 'releases');
process.env.DEPLOY_DIR = path.join(work, 'deploy');
const { startCluster } = await import('./cluster.mjs');

const PORT = 8380;
const at = (p) => `http://localhost:${PORT}${p}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = [];
const say = (line) => console.log(`[${new Date().toISOString().slice(11, 23)}] ${line}`);

const cluster = await startCluster({
  port: PORT,
  apiPorts: [4301, 4302],
  edgePorts: [4311, 4312],
  runDir: path.join(work, 'run'),
  quiet: true,
  log: (line) => {
    log.push(line);
    say(line);
  },
  pgDir: path.join(work, 'postgres'),
  pgPort: 5443,
  freshDatabase: true,
  // Commits that PostgreSQL acknowledged must survive its kill: fsync and synchronous commits on.
  fastDatabase: false,
  env: { REQUIRES_ACTIVATION: 'false', RATE_LIMITS: 'false' },
});

/** One member to write as. */
async function member() {
  const username = `chaos_${Date.now().toString(36)}`;
  const password = 'Chaos-pass-1';
  const email = `${username}@example.com`;
  const registered = await fetch(at('/api/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password,
      email,
      name: { first: 'Chaos', last: 'Monkey' },
      address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
    }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const login = await fetch(at('/api/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  return (await login.json()).token;
}

const phases = [];
let phase = null;
const startPhase = (name) => {
  phase = {
    name,
    started: Date.now(),
    reads: 0,
    readFailures: {},
    writes: 0,
    writeFailures: {},
    only503: true,
  };
  phases.push(phase);
  say(`phase: ${name}`);
};
const count = (bucket, key) => {
  bucket[key] = (bucket[key] ?? 0) + 1;
};
const acknowledged = [];
let running = true;
let lastOkWrite = 0;

const reader = async (paths) => {
  for (let n = 0; running; n += 1) {
    const p = paths[n % paths.length];
    const current = phase;
    try {
      const res = await fetch(at(p), { signal: AbortSignal.timeout(15_000) });
      await res.arrayBuffer();
      if (res.status === 200) {
        current.reads += 1;
      } else {
        count(current.readFailures, `${res.status}${res.headers.get('retry-after') ? '+Retry-After' : ''}`);
        if (res.status !== 503 || !res.headers.get('retry-after')) current.only503 = false;
      }
    } catch (error) {
      count(current.readFailures, error.cause?.code ?? error.name);
      current.only503 = false;
    }
  }
};
const writer = async (token) => {
  for (let n = 0; running; n += 1) {
    const current = phase;
    try {
      const res = await fetch(at('/api/posts'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          title: `Chaos ${n} ${Date.now()}`,
          summary: 'Written under chaos',
          content: 'Body',
          content_type: 'research_report',
          visibility: 'members_only',
          status: 'published',
          tags: ['chaos'],
          categories: ['Testing'],
        }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = await res.json().catch(() => null);
      if (res.status === 201) {
        current.writes += 1;
        lastOkWrite = Date.now();
        acknowledged.push({ id: body.id, phase: current.name });
      } else {
        count(current.writeFailures, `${res.status}${res.headers.get('retry-after') ? '+Retry-After' : ''}`);
        await sleep(100);
      }
    } catch (error) {
      count(current.writeFailures, error.cause?.code ?? error.name);
    }
  }
};

const problems = [];
let pgBackAfterMs = null;
let recoveredAfterMs = null;
try {
  const token = await member();
  startPhase('warm-up');
  const workers = [
    reader(['/api/posts?limit=6', '/api/health', '/about']),
    reader(['/api/posts/search?q=risk', '/', '/api/posts?limit=12']),
    writer(token),
  ];
  await sleep(3000);

  startPhase('kill -9 api :4301');
  const api = cluster.supervisors.api[0];
  const oldApi = api.current;
  process.kill(oldApi.pid, 'SIGKILL');
  while (api.current === oldApi || !api.current) await sleep(50);
  await sleep(3000);

  startPhase('kill -9 edge :4311');
  const edge = cluster.supervisors.edge[0];
  const oldEdge = edge.current;
  process.kill(oldEdge.pid, 'SIGKILL');
  while (edge.current === oldEdge || !edge.current) await sleep(50);
  await sleep(3000);

  startPhase('kill -9 postgres');
  const pg = cluster.supervisors.postgres;
  const oldPg = pg.current;
  const killedAt = Date.now();
  process.kill(oldPg.pid, 'SIGKILL');
  while (pg.current === oldPg || !pg.current) await sleep(50);
  const backAt = Date.now();
  pgBackAfterMs = backAt - killedAt;
  // Full service: a write (which needs the database, unlike a cached list) is acknowledged again.
  while (lastOkWrite < backAt && Date.now() - backAt < 30_000) await sleep(20);
  recoveredAfterMs = lastOkWrite >= backAt ? lastOkWrite - backAt : null;
  await sleep(3000);

  startPhase('after postgres');
  await sleep(3000);

  startPhase('pnpm cluster reload');
  await cluster.reload();
  await sleep(1000);

  running = false;
  await Promise.all(workers);

  // Every acknowledged write is there.
  const missing = [];
  for (const { id, phase: during } of acknowledged) {
    const res = await fetch(at(`/api/posts/${id}`), { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) missing.push(`${id} (${during}: ${res.status})`);
  }

  console.log('\nphase                   reads ok  failed reads              writes ok  failed writes');
  for (const p of phases) {
    const fmt = (bucket) =>
      Object.entries(bucket)
        .map(([k, v]) => `${k}:${v}`)
        .join(' ') || '0';
    console.log(
      `${p.name.padEnd(24)}${String(p.reads).padStart(8)}  ${fmt(p.readFailures).padEnd(26)}${String(p.writes).padStart(9)}  ${fmt(p.writeFailures)}`,
    );
    const failedReads = Object.values(p.readFailures).reduce((a, b) => a + b, 0);
    if (p.name === 'kill -9 postgres') {
      if (!p.only503) problems.push(`${p.name}: a failed read that was not a 503 with Retry-After`);
    } else if (failedReads > 0) problems.push(`${p.name}: ${failedReads} failed reads`);
  }
  console.log(
    `\nPostgreSQL back ${(pgBackAfterMs / 1000).toFixed(1)} s after its kill; first acknowledged write ${recoveredAfterMs === null ? 'never' : `${(recoveredAfterMs / 1000).toFixed(1)} s`} after that`,
  );
  console.log(
    `acknowledged writes: ${acknowledged.length}, missing afterwards: ${missing.length} ${missing.join(', ')}`,
  );
  if (recoveredAfterMs === null || recoveredAfterMs > 5000)
    problems.push('no full service within 5 s of PostgreSQL');
  if (missing.length > 0) problems.push(`${missing.length} acknowledged writes missing`);
} catch (error) {
  problems.push(error.stack ?? String(error));
} finally {
  running = false;
  // What nginx saw go wrong with a write (why a POST was answered 502): its error log, for the operator.
  const errors = fs.readFileSync(path.join(work, 'run', 'error.log'), 'utf8').split('\n');
  const writeErrors = errors.filter((line) => /request: "(POST|PUT|PATCH|DELETE) /.test(line));
  if (writeErrors.length > 0) console.log(`\nnginx, on writes:\n${writeErrors.slice(0, 10).join('\n')}`);
  await cluster.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(`\nchaos: targets missed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('\nchaos: every target met');
process.exit(0);
