// The cluster's supervisor (supervisor.mjs) with tiny real child processes: a death is restarted with a
// growing back-off and a log line each, a good run resets the back-off, restart() replaces on purpose
// (SIGTERM first), stop() ends it for good.
// Run: `node --test scripts/cluster/supervisor.test.mjs` (part of `pnpm test:cluster`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { lineLog } from './line-log.mjs';
import { hasExited, supervise } from './supervisor.mjs';

// Every child any test started: killed at the end, whatever failed.
const started = [];
after(() => {
  for (const child of started) if (!hasExited(child)) child.kill('SIGKILL');
});

/**
 * A child that prints "ready" and then lives until killed. On SIGTERM it prints "draining" and exits 0 after
 * 50 ms: its own behaviour (a server finishing what it has), not a wait of the tests.
 */
async function tinyServer() {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `process.on('SIGTERM', () => { console.log('draining'); setTimeout(() => process.exit(0), 50); });
       console.log('ready'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  started.push(child);
  const [chunk] = await once(child.stdout, 'data');
  assert.match(String(chunk), /ready/);
  return child;
}

/** The supervisor's line for a process back after a death: logged when the new one is ready and current. */
const back = (line) => / is back \(pid \d+/.test(line);

describe('supervise', () => {
  it('restarts a killed process with a doubling back-off, one log line per death and per restart', async () => {
    const { lines, log, waitFor } = lineLog();
    const s = supervise({ name: 'tiny', launch: tinyServer, log, initialDelayMs: 100 });
    const first = await s.start();
    const pids = [first.pid];
    for (const expectedDelay of ['0.1 s', '0.2 s', '0.4 s']) {
      const before = s.current;
      const from = lines.length;
      process.kill(before.pid, 'SIGKILL');
      await waitFor(back, from);
      assert.notEqual(s.current, before);
      pids.push(s.current.pid);
      assert.ok(
        lines.some((l) => l.includes(`restarting in ${expectedDelay}`)),
        lines.join('\n'),
      );
    }
    assert.equal(new Set(pids).size, 4);
    assert.equal(s.restarts, 3);
    const deaths = lines.filter((l) => l.includes('died'));
    assert.equal(deaths.length, 3);
    assert.match(
      deaths[0],
      /^cluster: tiny \(pid \d+\) died: signal SIGKILL; restarting in 0\.1 s \(attempt 1\)$/,
    );
    assert.equal(lines.filter((l) => /tiny is back \(pid \d+, ready in/.test(l)).length, 3);
    await s.stop();
    assert.ok(hasExited(s.current ?? { exitCode: 0 }));
  });

  it('a run longer than resetAfterMs starts the back-off again from the first delay', async () => {
    const { lines, log, waitFor } = lineLog();
    // How long a run lasted is read on this clock, moved by hand: a "long" run takes no time.
    let clock = 1_000_000;
    const s = supervise({
      name: 'tiny',
      launch: tinyServer,
      log,
      initialDelayMs: 50,
      resetAfterMs: 300,
      now: () => clock,
    });
    await s.start();
    for (const ran of [0, 0, 400]) {
      clock += ran;
      const before = s.current;
      const from = lines.length;
      before.kill('SIGKILL');
      await waitFor(back, from);
      assert.notEqual(s.current, before);
    }
    const delays = lines.filter((l) => l.includes('died')).map((l) => l.match(/in ([\d.]+ s)/)[1]);
    assert.deepEqual(delays, ['0.05 s', '0.1 s', '0.05 s']);
    await s.stop();
  });

  it('a process that exits with an error code is restarted too; a failing launch backs off', async () => {
    const { lines, log, waitFor } = lineLog();
    let launches = 0;
    const s = supervise({
      name: 'flaky',
      launch: async () => {
        launches += 1;
        // The 2nd and 3rd launches fail before they are ready.
        if (launches === 2 || launches === 3) throw new Error('port in use');
        return tinyServer();
      },
      log,
      initialDelayMs: 20,
    });
    const first = await s.start();
    process.kill(first.pid, 'SIGUSR2'); // node's default for SIGUSR2 is to exit by that signal
    await waitFor(back);
    assert.notEqual(s.current, first);
    assert.equal(launches, 4);
    assert.deepEqual(
      lines.map((l) => l.replace(/pid \d+/, 'pid N').replace(/ready in [\d.]+ s/, 'ready in T')),
      [
        'cluster: flaky (pid N) died: signal SIGUSR2; restarting in 0.02 s (attempt 1)',
        'cluster: flaky did not start: port in use; restarting in 0.04 s (attempt 2)',
        'cluster: flaky did not start: port in use; restarting in 0.08 s (attempt 3)',
        'cluster: flaky is back (pid N, ready in T)',
      ],
    );
    const exited = s.current;
    const from = lines.length;
    exited.kill('SIGTERM'); // exits 0 by itself: still not asked for by the supervisor, so restarted
    await waitFor(back, from);
    assert.notEqual(s.current, exited);
    assert.match(lines.at(-2), /died: exit code 0; restarting in 0\.16 s/);
    await s.stop();
  });

  it('restart() drains the old one with SIGTERM and resolves once the new one is ready; no death logged', async () => {
    const { lines, log } = lineLog();
    const s = supervise({ name: 'tiny', launch: tinyServer, log });
    const old = await s.start();
    let drained = '';
    old.stdout.on('data', (chunk) => {
      drained += chunk;
    });
    const replacement = await s.restart();
    assert.ok(hasExited(old));
    assert.equal(old.exitCode, 0);
    assert.match(drained, /draining/);
    assert.notEqual(replacement.pid, old.pid);
    assert.equal(s.current, replacement);
    assert.ok(!hasExited(replacement));
    // No wait needed for a death line: the supervisor's exit listener on the old one was added before
    // restart()'s own, so it has run (and would have logged) by the time restart() resolved.
    assert.deepEqual(lines, []);
    await s.stop();
  });

  it('restart() while a death is being restarted waits for that launch: one process, no second one', async () => {
    const { lines, log, waitFor } = lineLog();
    let launches = 0;
    // The launch after the death is held before it resolves, until the test lets it go: restart() comes
    // while it runs, whatever the timing.
    let relaunchStarted;
    const relaunching = new Promise((resolve) => {
      relaunchStarted = resolve;
    });
    let letGo;
    const gate = new Promise((resolve) => {
      letGo = resolve;
    });
    const s = supervise({
      name: 'slow',
      launch: async () => {
        launches += 1;
        const child = await tinyServer();
        if (launches === 2) {
          relaunchStarted(child);
          await gate;
        }
        return child;
      },
      log,
      initialDelayMs: 10,
    });
    const first = await s.start();
    first.kill('SIGKILL');
    await waitFor((l) => l.includes('restarting in'));
    const relaunched = await relaunching;
    const restarted = s.restart();
    letGo();
    const replacement = await restarted;
    assert.equal(s.current, replacement);
    assert.equal(launches, 3);
    // restart() waited for the launch in flight and replaced what it brought: that one drained and exited.
    assert.ok(hasExited(relaunched));
    const alive = started.filter((child) => !hasExited(child));
    assert.deepEqual(
      alive.map((child) => child.pid),
      [replacement.pid],
    );
    assert.equal(lines.filter((l) => l.includes('did not start')).length, 0, lines.join('\n'));
    await s.stop();
  });

  it('stop() ends it for good: no restart afterwards', async () => {
    const { lines, log } = lineLog();
    const s = supervise({ name: 'tiny', launch: tinyServer, log, initialDelayMs: 10 });
    const child = await s.start();
    await s.stop();
    assert.ok(hasExited(child));
    // A death would be logged by the exit listener, which ran before stop() resolved; a restart only
    // follows a logged death (or a failed launch, and none runs).
    assert.deepEqual(lines, []);
    assert.equal(s.restarts, 0);
  });
});
