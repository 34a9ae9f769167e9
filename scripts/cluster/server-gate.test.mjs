// The gate rolls back on the servers' signal alone (issue 48, docs/decisions/0043-server-signals-in-the-gate.md),
// end to end on the real processes: a cluster (nginx, two edges, two API instances), a canary of mf-research
// whose server render throws, page views through nginx from clients that run no JavaScript (so no browser
// ever sends a health report), the edges' signed render figures, and `pnpm rollout watch` as an operator runs
// it. It must roll the canary back (exit 2), say why in the audit, and the visitors must have kept getting
// their pages meanwhile (the edge falls back to the built page when a render fails).
// On SQLite and ports of its own (nginx 8380, API 4331-4332, edge 4341-4342), so it runs beside the others.
// Run: `node --import tsx --test scripts/cluster/server-gate.test.mjs` (needs Debian's nginx).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { lineLog } from './line-log.mjs';
import { clusterWorkDir, edgesAt, testClusterOptions } from './test-cluster.mjs';

const work = clusterWorkDir('server-gate-test-');
const { startCluster } = await import('./cluster.mjs');
const { ROOT } = await import('../apps.mjs');
const { createContext, release, startCanary } = await import('@app/release');

const PORT = 8380;
const API_PORTS = [4331, 4332];
const EDGE_PORTS = [4341, 4342];
/** The gate's default minimum of renders per version (DEFAULT_GATE.minRenders), with room. */
const RENDERS_EACH = 60;

let cluster;
let stableVersion;
let canaryVersion;
const supervisor = lineLog();
const at = (p) => `http://localhost:${PORT}${p}`;
const api = (p) => `http://127.0.0.1:${API_PORTS[0]}${p}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The mf-research version a page was composed for: its visitor's plan (the block the edge writes in it). */
function plannedVersion(html) {
  const block = html.match(/<script type="application\/json" id="page-plan">([^<]*)<\/script>/)?.[1];
  return block ? JSON.parse(block).plan.mf_research.version : null;
}

/**
 * A copy of mf-research's build whose server render throws: its `renderPage` is renamed away and replaced
 * by one that fails, the rest of the release untouched (it loads, its client code is the same).
 */
function brokenResearchBuild() {
  const dist = path.join(work, 'research-broken');
  fs.cpSync(path.join(ROOT, 'mf-research', 'dist'), dist, { recursive: true });
  const file = path.join(dist, 'server-render.mjs');
  const source = fs.readFileSync(file, 'utf8');
  assert.ok(source.includes('function renderPage('), 'the server render bundle defines renderPage');
  fs.writeFileSync(
    file,
    source.replace(
      'function renderPage(',
      "function renderPage() {\n  throw new Error('this canary cannot render');\n}\nfunction renderPageAsBuilt(",
    ),
  );
  return dist;
}

/** The rollout CLI as an operator runs it (`pnpm rollout …`), against the first API instance. */
function rollout(args) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/rollout-cli.ts', ...args, '--to', api('')],
      { cwd: path.join(ROOT, 'tooling', 'release'), env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/**
 * One round of page views of /post/1 (mf-research renders it on the edge) through nginx by 20 clients that
 * keep their visitor cookie and run no script, 5 pages each. Every page must answer 200 and be planned with
 * stable or the canary; answers the page views per version.
 */
async function pageViews(seen) {
  for (let visitor = 0; visitor < 20; visitor += 1) {
    let cookie = '';
    for (let view = 0; view < 5; view += 1) {
      const res = await fetch(at('/post/1'), { headers: cookie ? { cookie } : {} });
      const html = await res.text();
      assert.equal(res.status, 200, `page view ${visitor}.${view}`);
      cookie ||= (res.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
      const version = plannedVersion(html);
      assert.ok(version in seen, `the page's plan has stable's or the canary's: ${version}`);
      seen[version] += 1;
    }
  }
}

before(async () => {
  cluster = await startCluster(
    testClusterOptions(
      { port: PORT, apiPorts: API_PORTS, edgePorts: EDGE_PORTS, work, log: supervisor.log },
      { database: 'sqlite', env: { SEED_DEMO: 'true' } },
    ),
  );
  const ctx = createContext({ to: api(''), env: 'production', log: () => {}, root: ROOT });
  stableVersion = (await ctx.client.state()).manifest.remotes['mf-research'].stable;
  canaryVersion = (
    await release(
      { remote: 'mf-research', root: ROOT, dist: brokenResearchBuild(), build: false, force: true },
      ctx.client,
    )
  ).info.version;
  assert.notEqual(canaryVersion, stableVersion);
  const { revision } = await startCanary(ctx, { remote: 'mf-research', version: canaryVersion, percent: 50 });
  // The edges follow the deployment within a second (their feed).
  await edgesAt(EDGE_PORTS, revision);
});
after(async () => {
  await cluster?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("the gate on the servers' signal", () => {
  it('rolls back a canary whose server render fails, with no browser report, while visitors get their pages', async () => {
    // Rounds of page views until the edges' figures at the API (sent every 10 s) have enough renders of
    // each version for the gate (a page asked while a sandbox is busy or starting gets the built picture,
    // not a render: not every page view is one).
    const ctx = createContext({ to: api(''), env: 'production', log: () => {}, root: ROOT });
    const seen = { [stableVersion]: 0, [canaryVersion]: 0 };
    const rendersOf = async (version) => (await ctx.client.renders('mf-research', version)).figures;
    const deadline = Date.now() + 120_000;
    let figures;
    let stable;
    for (;;) {
      await pageViews(seen);
      const settle = Date.now() + 12_000;
      do {
        await sleep(1000);
        [figures, stable] = await Promise.all([rendersOf(canaryVersion), rendersOf(stableVersion)]);
      } while (Math.min(figures.renders, stable.renders) < RENDERS_EACH && Date.now() < settle);
      if (Math.min(figures.renders, stable.renders) >= RENDERS_EACH) break;
      assert.ok(
        Date.now() < deadline,
        `renders at the API after ${JSON.stringify(seen)} page views: canary ${JSON.stringify(figures)}, stable ${JSON.stringify(stable)}`,
      );
    }
    // No browser ran: the API has no health report at all.
    assert.deepEqual((await ctx.client.health('mf-research', canaryVersion)).visitors, []);
    assert.equal(figures.failures, figures.renders, `every canary render failed: ${JSON.stringify(figures)}`);
    assert.equal(stable.failures, 0);

    const watched = await rollout(['watch', 'mf-research', '--interval', '1', '--max-wait', '60']);
    assert.equal(watched.code, 2, `rollout watch exits 2 when it rolled back:\n${watched.out}`);

    const { manifest } = await ctx.client.state();
    assert.equal(manifest.remotes['mf-research'].stable, stableVersion);
    assert.equal(manifest.remotes['mf-research'].canary, undefined);
    const history = await rollout(['history', 'mf-research', '--json', '--limit', '1']);
    assert.equal(history.code, 0, history.out);
    const [entry] = JSON.parse(history.out).entries;
    assert.equal(entry.action, 'watch-rollback');
    assert.match(entry.from, new RegExp(`canary ${canaryVersion}`));
    assert.match(
      entry.reason,
      /^server render failures: canary 100\.0 % of \d+ renders, stable 0\.0 % of \d+ renders/,
    );

    // Once the edges have the rollback (their feed, within a second), every new visitor gets stable.
    const until = Date.now() + 5_000;
    let planned;
    do {
      planned = plannedVersion(await (await fetch(at('/post/1'))).text());
      if (planned !== stableVersion) await sleep(200);
    } while (planned !== stableVersion && Date.now() < until);
    assert.equal(planned, stableVersion);
  });
});
