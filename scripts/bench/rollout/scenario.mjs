// One canary of `pnpm bench:rollout` (scripts/bench-rollout.mjs) through the product's own commands: a
// variant build of mf-public-pages released with `pnpm release`, started with `pnpm rollout start` at the
// first step and handed to the real `pnpm rollout watch` (tooling/release/src/watch.ts), while the load
// generator (visitors.mjs) plays visitors. The decision, its step and reason come from what the watch printed
// and from the audit log (`pnpm rollout history --json`); nothing here decides anything.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REMOTE } from './visitors.mjs';

const run = promisify(execFile);
const HERO = 'See the risks coming.';

/** `pnpm <args>` in the measured checkout against the product's store, deployment and database. */
export async function pnpm(topology, args, timeout = 180_000) {
  try {
    const { stdout } = await run('pnpm', ['--silent', ...args], {
      cwd: topology.root,
      env: commandEnv(topology),
      timeout,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    throw new Error(
      `pnpm ${args.join(' ')} failed (${error.code}): ${error.stderr ?? ''}${error.stdout ?? ''}`,
    );
  }
}

/** A file name's part from a label ("B throws for 5 %" → "b-throws-for-5"). */
const slug = (label) => label.replace(/\W+/g, '-').replace(/^-|-$/g, '').toLowerCase();

const commandEnv = (topology) => ({
  ...topology.commandEnv,
  ROLLOUT_ACTOR: 'bench-rollout',
  LOG_LEVEL: 'silent',
});

/**
 * Releases a copy of the checkout's mf-public-pages build whose Home hero starts with `label` (a marker file
 * too, so the version differs even if the hero's text moved) and returns its version id.
 */
export async function releaseVariant(topology, runDir, label) {
  const source = path.join(topology.root, REMOTE, 'dist');
  const dir = path.join(runDir, `${REMOTE}-${slug(label)}`);
  fs.cpSync(source, dir, { recursive: true });
  for (const file of fs.readdirSync(dir)) {
    if (!/\.m?js$|^prerender\.json$/.test(file)) continue;
    const full = path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    if (text.includes(HERO)) fs.writeFileSync(full, text.replaceAll(HERO, `${label}: s${HERO.slice(1)}`));
  }
  fs.writeFileSync(path.join(dir, 'bench-variant.txt'), `${label}\n`);
  const out = await pnpm(topology, ['release', REMOTE, '--dist', dir]);
  return out.trim().split('\n').at(-1).trim();
}

export async function deploymentOf(baseUrl) {
  const response = await fetch(`${baseUrl}/deployment.json`, {
    cache: 'no-store',
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`${baseUrl}/deployment.json answered ${response.status}`);
  return (await response.json()).remotes?.[REMOTE] ?? {};
}

/** Waits until the edge serves what `check` wants (it re-reads the manifest within about a second). */
export async function untilServed(baseUrl, check, what) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (check(await deploymentOf(baseUrl))) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${baseUrl}/deployment.json did not show ${what} within 20 s`);
}

/** The gate's own sample in a reason ("canary 5.6 % of 412 visitors", "canary 336 ms (123 visitors)"). */
export function gateSample(reason) {
  const m = /canary [^,;]*?(?:of |\()([\d,]+) visitors?/.exec(reason ?? '');
  return m ? Number(m[1].replace(/,/g, '')) : null;
}

/** A reason without its sample sizes, for the table (the full text is printed under it). */
export function shortReason(reason) {
  return (reason ?? '')
    .replace(/: worse beyond the margin at .*$/, '')
    .replace(/ of [\d,]+ visitors?/g, '')
    .replace(/ \([\d,]+ visitors?\)/g, '')
    .replace(/: within the margins.*$/, ': within the margins');
}

/**
 * Runs `pnpm rollout watch` and the visitors until it decides. Returns { name, version, outcome, step,
 * seconds (from the canary's start to the decision), watchStartSeconds, canaryVisitors, canaryPageViews,
 * pageViews, reportStatuses, gateSample, reason, audit, log }.
 */
export async function runCanary({ topology, generator, runDir, name, version, watch, log, closers }) {
  const baseUrl = topology.baseUrl;
  const before = await deploymentOf(baseUrl);
  if (before.canary) throw new Error(`${REMOTE} already has a canary (${before.canary.version})`);
  const logFile = path.join(runDir, `watch-${slug(name)}.log`);
  const args = [
    'rollout',
    'watch',
    REMOTE,
    '--steps',
    watch.steps.join(','),
    '--interval',
    String(watch.interval),
    '--min-visitors',
    String(watch.minVisitors),
    '--max-wait',
    String(watch.maxWait),
  ];
  log(`canary ${name}: ${version} (stable ${before.stable}); pnpm ${args.join(' ')}`);
  generator.reset();
  generator.start();
  let began = Date.now();
  let step = watch.steps[0];
  let outcome = null;
  let reason = null;
  let decidedAt = null;
  let watchingAt = null;
  let child = null;
  let canaryOn = false;
  const abort = () => pnpm(topology, ['rollout', 'abort', REMOTE]).catch(() => {});
  const kill = () => {
    try {
      if (child && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    await pnpm(topology, ['rollout', 'start', REMOTE, version, '--percent', String(step)]);
    canaryOn = true;
    // The time to a decision counts from here: the canary is in the deployment (the edge serves it within
    // about a second).
    began = Date.now();
    closers.add(abort);
    child = spawn('pnpm', ['--silent', ...args], {
      cwd: topology.root,
      env: commandEnv(topology),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    closers.add(kill);
    const out = fs.createWriteStream(logFile);
    let lastProgress = Date.now();
    const onLine = (line) => {
      out.write(`${line}\n`);
      const advanced = /advanced: .*; (\d+) % → (\d+) %$/.exec(line);
      const rolledBack = /rolled back: (.*); stable stays /.exec(line);
      const promoted = / promoted \S+ to stable: (.*)$/.exec(line);
      const stopped = / stopped: (.*)$/.exec(line);
      if (advanced) step = Number(advanced[2]);
      if (/ watching canary /.test(line)) watchingAt ??= Date.now();
      if (rolledBack || promoted || stopped) {
        decidedAt ??= Date.now();
        outcome = rolledBack ? 'rolled back' : promoted ? 'promoted' : 'stopped';
        reason = (rolledBack ?? promoted ?? stopped)[1];
      }
      if (advanced || rolledBack || promoted || stopped || / watching /.test(line)) log(`  watch: ${line}`);
      else if (Date.now() - lastProgress >= 10_000) {
        lastProgress = Date.now();
        const s = generator.stats;
        const mine = generator.stats.byVersion.get(version);
        log(
          `  ${Math.round((Date.now() - began) / 1000)} s: ${s.pageViews} page views, ${mine?.visitors.size ?? 0} canary ` +
            `visitors; watch: ${line.replace(/^\S+ \S+ /, '').slice(0, 160)}`,
        );
      }
    };
    const lines = (stream) => {
      let rest = '';
      stream.on('data', (chunk) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop();
        for (const part of parts) if (part.trim()) onLine(part);
      });
    };
    lines(child.stdout);
    lines(child.stderr);
    const code = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(c ?? signal)));
    closers.delete(kill);
    out.end();
    decidedAt ??= Date.now();
    if (!outcome) {
      outcome = 'failed';
      reason = `pnpm rollout watch exited ${code} without a decision (see ${logFile})`;
    }
  } finally {
    kill();
    await generator.stop();
    if (canaryOn && (await deploymentOf(baseUrl).catch(() => ({}))).canary?.version === version) {
      log(`canary ${name}: still running after the watch; aborting it`);
      await abort();
    }
    closers.delete(abort);
  }
  await untilServed(baseUrl, (d) => !d.canary, `${REMOTE} without a canary`);
  const history = JSON.parse(await pnpm(topology, ['rollout', 'history', REMOTE, '--json', '--limit', '5']));
  const audit =
    history.entries?.find((e) => /^watch-/.test(e.action) && Date.parse(e.at) >= began - 1000) ?? null;
  // The audit entry of a rollback names the step it left ("… canary <v> at 10 %").
  const auditStep = /canary \S+ at (\d+) %/.exec(audit?.from ?? '');
  const mine = generator.stats.byVersion.get(version);
  return {
    name,
    version,
    outcome,
    step: auditStep ? Number(auditStep[1]) : step,
    seconds: (decidedAt - began) / 1000,
    // `pnpm rollout watch` takes a few seconds to start (pnpm, tsx, the database): part of `seconds`.
    watchStartSeconds: watchingAt === null ? null : (watchingAt - began) / 1000,
    canaryVisitors: mine?.visitors.size ?? 0,
    canaryPageViews: mine?.pageViews ?? 0,
    pageViews: generator.stats.pageViews,
    reportStatuses: generator.stats.reports,
    gateSample: gateSample(reason),
    reason,
    audit,
    log: logFile,
  };
}
