// `pnpm bench:rollout` (issue 31): does the health gate of `pnpm rollout watch` promote a healthy canary,
// roll back bad ones before half the visitors get them, and count nothing an attacker sends? And what do the
// health signals cost the page?
//
//   pnpm bench:rollout [--concurrency 16] [--min-visitors 100] [--quick] [--keep] [--no-cost]
//                      [--attack-reports 10000] [--max-wait 180] [--wait-ports 900]
//
// It starts the `single` topology itself (scripts/bench/topology.mjs: `scripts/start.mjs` with a release
// store, deployment and SQLite database of the run's own, edge on :3000, API on :4000) and stops it at the end
// (also on failure or Ctrl+C). Every simulated visitor comes from 127.0.0.1, so the API's per-address limit on
// health reports is raised for the run (RATE_LIMIT_HEALTH=1000000/1m); the bench says so when it starts.
//
// 1. Cost (scripts/bench/rollout/cost.mjs; skipped with --no-cost): Chromium opens `/`, clicks, hides the
//    page; the shell's own performance measures give the main-thread ms of starting the watch, registering
//    the Web Vitals observers and sending the report, the report's bytes, and the web-vitals chunk's size.
// 2. Three canaries of mf-public-pages (route `/`), one after the other (scenario.mjs), each a variant build
//    released with `pnpm release`, started with `pnpm rollout start --percent <first step>` and watched by the
//    real `pnpm rollout watch --steps 1,10,50,100 --interval 1 --min-visitors 100 --max-wait 180`, while the
//    load generator (visitors.mjs; --concurrency sessions at once) plays visitors of `/` with the shell's
//    protocol (page view → plan and ticket → one report per page view on the version served):
//      stable   LCP lognormal median 1,200 ms, INP median 120 ms, CLS 0.02-0.05, runtime errors on 0.5 % of
//               page views
//      A        healthy: behaves like stable                                   target: promoted
//      B        throws for 5 % of visitors (a fixed set, by a hash of their     target: rolled back < 50 %
//               key): a runtime error on each of their page views
//      C        INP twice stable's                                             target: rolled back < 50 %
// 3. The attacker (attacker.mjs): --attack-reports forged and replayed reports, no visitors running; the
//    database is read directly before and after (store.mjs).                   target: 0 counted
//
// B's target is a statistical one. With a gate that advanced on the observed error rate alone, B (about
// 5.5 % against an allowed 2.5 %) passed a 100-visitor step now and then: simulating decideStep at this
// bench's pace (about 450 visitors a 1 s tick), it reached 50 % in 0.75 % of 2,000 runs. Since the gate
// requires the error rate to be shown within the margin (decision 0027), a step like that is extended instead.
//
// Prints a table and writes bench-results/rollout-<time>.json; exits 1 when a target is missed. --quick is a
// smoke run (steps 10,50,100, --min-visitors 30, 1,000 attack reports, one cost page view). --keep leaves the run folder (logs, store,
// deployment, database, each watch's full output); it is kept anyway after a failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './apps.mjs';
import { attack } from './bench/rollout/attacker.mjs';
import { measureCost } from './bench/rollout/cost.mjs';
import { printReport } from './bench/rollout/report.mjs';
import { deploymentOf, releaseVariant, runCanary } from './bench/rollout/scenario.mjs';
import { openStore } from './bench/rollout/store.mjs';
import { LoadGenerator, PROFILES, REMOTE } from './bench/rollout/visitors.mjs';
import { portInUse, SINGLE, startTopology } from './bench/topology.mjs';

const USAGE =
  'pnpm bench:rollout [--concurrency 16] [--min-visitors 100] [--quick] [--keep] [--no-cost]\n' +
  '                   [--attack-reports 10000] [--max-wait 180] [--wait-ports 900]\n' +
  '(described at the top of scripts/bench-rollout.mjs)';
const HEALTH_LIMIT = '1000000/1m';

let opts;
try {
  ({ values: opts } = parseArgs({
    options: {
      concurrency: { type: 'string', default: '16' },
      'min-visitors': { type: 'string' },
      quick: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'no-cost': { type: 'boolean', default: false },
      'attack-reports': { type: 'string' },
      'max-wait': { type: 'string' },
      'wait-ports': { type: 'string', default: '900' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
function fail(message) {
  console.error(`bench:rollout: ${message}`);
  process.exit(1);
}
const wholeNumber = (name, fallback, min) => {
  const raw = opts[name] ?? String(fallback);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    fail(`--${name} must be a whole number of at least ${min}, not ${raw}`);
  return n;
};
const QUICK = opts.quick;
const CONCURRENCY = wholeNumber('concurrency', 16, 1);
const WATCH = {
  steps: QUICK ? [10, 50, 100] : [1, 10, 50, 100],
  interval: 1,
  minVisitors: wholeNumber('min-visitors', QUICK ? 30 : 100, 1),
  maxWait: wholeNumber('max-wait', QUICK ? 90 : 180, 1),
};
const ATTACK_REPORTS = wholeNumber('attack-reports', QUICK ? 1000 : 10_000, 1);
const WAIT_PORTS = wholeNumber('wait-ports', 900, 0);
const CANARIES = [
  { name: 'A healthy', label: 'Canary A', profile: PROFILES.healthy, target: 'promoted' },
  { name: 'B throws for 5 %', label: 'Canary B', profile: PROFILES.throws, target: 'rolled back' },
  { name: 'C INP ×2', label: 'Canary C', profile: PROFILES.slowInp, target: 'rolled back' },
];

const log = (line) => process.stderr.write(`${line}\n`);
/** What an interruption must undo before the topology stops: a watch, a canary, a browser. */
const closers = new Set();

/** Polls every 20 s until nothing listens on 3000-3004/4000 (someone else's run), up to `seconds`. */
async function waitForPorts(seconds) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const busy = [];
    for (const port of SINGLE.ports) if (await portInUse(port)) busy.push(port);
    if (!busy.length) return;
    if (Date.now() >= deadline)
      throw new Error(
        `ports ${busy.join(', ')} are still in use after ${seconds} s (another run of the product?)`,
      );
    log(`ports ${busy.join(', ')} in use: waiting (every 20 s, up to ${seconds} s in all)`);
    await new Promise((resolve) => setTimeout(resolve, 20_000));
  }
}

/** A canary met its target: A promoted; B and C rolled back at a step below 50 %. */
const metTarget = (c, target) =>
  target === 'promoted' ? c.outcome === 'promoted' : c.outcome === 'rolled back' && c.step < 50;

async function measure(topology, runDir) {
  const began = Date.now();
  const results = { cost: null, canaries: [], attack: null };
  if (!opts['no-cost']) {
    log('cost: Chromium on / (load + 2 s, a click, then the page hidden)');
    results.cost = await measureCost({ baseUrl: topology.baseUrl, runs: QUICK ? 1 : 3, log, closers });
  }
  const stable = (await deploymentOf(topology.baseUrl)).stable;
  const profiles = new Map([[stable, PROFILES.stable]]);
  for (const c of CANARIES) {
    c.version = await releaseVariant(topology, runDir, c.label);
    profiles.set(c.version, c.profile);
    log(`released ${c.name}: ${REMOTE} ${c.version}`);
  }
  const generator = new LoadGenerator({
    url: `${topology.baseUrl}/`,
    concurrency: CONCURRENCY,
    profileOf: (version) => profiles.get(version) ?? PROFILES.stable,
    log,
  });
  closers.add(() => generator.stop());
  for (const c of CANARIES) {
    const result = await runCanary({
      topology,
      generator,
      runDir,
      name: c.name,
      version: c.version,
      watch: WATCH,
      log,
      closers,
    });
    results.canaries.push({ ...result, target: c.target, met: metTarget(result, c.target) });
  }

  const store = await openStore({
    dbPath: topology.dbPath,
    apiUrl: topology.commandEnv.DEPLOY_API_URL,
    deployDir: topology.deployDir,
  });
  try {
    const now = (await deploymentOf(topology.baseUrl)).stable;
    const canaryVersion = CANARIES.at(-1).version;
    const versions = [...new Set([now, canaryVersion, ...CANARIES.map((c) => c.version)])];
    log(
      `attacker: ${ATTACK_REPORTS} forged and replayed reports (stable ${now}; claiming canary ${canaryVersion})`,
    );
    results.attack = await attack({
      url: `${topology.baseUrl}/`,
      canaryVersion,
      total: ATTACK_REPORTS,
      concurrency: CONCURRENCY,
      snapshot: () => store.snapshot(REMOTE, versions),
      log,
    });
  } finally {
    await store.close();
  }
  results.seconds = Math.round((Date.now() - began) / 1000);
  return results;
}

async function main() {
  const started = Date.now();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rollout-'));
  // Every simulated visitor is 127.0.0.1; the API would refuse their reports past 600 a minute otherwise.
  // topology.mjs passes the bench's environment on, and RATE_LIMIT_HEALTH wins over its older setting.
  process.env.RATE_LIMIT_HEALTH = HEALTH_LIMIT;
  // Each simulated visitor names an address of its own in X-Forwarded-For (the edge trusts loopback), as
  // real visitors come from many: the gate counts at most 5 visitors per address (decision 0027), and the
  // edge makes at most NEW_VISITORS_PER_ADDRESS new ones per address, raised here like the health limit.
  process.env.NEW_VISITORS_PER_ADDRESS = '1000000/1h';
  log(
    `every simulated visitor comes from 127.0.0.1: the API's per-address limit on health reports is raised ` +
      `to RATE_LIMIT_HEALTH=${HEALTH_LIMIT} for this run (default 600 a minute)`,
  );
  if (WAIT_PORTS > 0) await waitForPorts(WAIT_PORTS);
  let topology = null;
  let stopping = null;
  let interrupted = false;
  const stop = () => {
    stopping ??= (topology?.stop() ?? Promise.resolve()).catch((error) => log(`stopping: ${error.message}`));
    return stopping;
  };
  const closeAll = () =>
    Promise.all(
      [...closers].map((close) =>
        Promise.resolve()
          .then(close)
          .catch(() => {}),
      ),
    );
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      interrupted = true;
      log(`${signal}: stopping what the bench started`);
      await closeAll();
      await stop();
      log(`the run's folder is kept: ${runDir}`);
      process.exit(130);
    });
  }
  let ok = false;
  let results = null;
  try {
    topology = await startTopology({ kind: 'single', root: ROOT, runDir, log });
    results = await measure(topology, runDir);
    ok = true;
  } finally {
    await closeAll();
    await stop();
    if (ok && !opts.keep) fs.rmSync(runDir, { recursive: true, force: true });
    else if (!interrupted) log(`the run's folder (logs, store, deployment, database) is kept: ${runDir}`);
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const missed = printReport({
    results,
    watch: WATCH,
    quick: QUICK,
    concurrency: CONCURRENCY,
    seconds,
    healthLimit: HEALTH_LIMIT,
  });
  const outDir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `rollout-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const { raw: _raw, ...cost } = results.cost ?? {};
  const json = {
    date: new Date().toISOString(),
    seconds,
    options: {
      quick: QUICK,
      concurrency: CONCURRENCY,
      watch: WATCH,
      attackReports: ATTACK_REPORTS,
      healthLimit: HEALTH_LIMIT,
    },
    environment: { node: process.version, cpus: os.cpus().length, loadavg: os.loadavg() },
    ...results,
    cost: results.cost ? cost : null,
    missed,
  };
  fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(
    `\n${path.relative(ROOT, file)} written; ${Math.floor(seconds / 60)} min ${seconds % 60} s in all`,
  );
  return missed.length === 0;
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    const bug = error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError;
    console.error(`bench:rollout: ${bug ? error.stack : (error?.message ?? error)}`);
    process.exit(1);
  },
);
