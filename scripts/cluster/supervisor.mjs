// Keeps one cluster process running (issue 32): when it dies, it is started again after a back-off
// (0.5 s doubling to 10 s, back to 0.5 s once a run has stayed up for 30 s), with one log line per death and
// one per restart; the other processes are not touched. Only stop() ends it for good. restart() replaces
// it on purpose (a rolling reload): SIGTERM, wait for its exit (it drains), start the next, wait for ready.
//
// A process is whatever `launch()` resolves to once it is ready: a ChildProcess, or anything with `pid`,
// `exitCode` (null while it runs), `kill(signal)` and an 'exit' event (code, signal), such as the handle
// cluster.mjs makes for a PostgreSQL server that pg_ctl started. `launch()` rejects when the process did not
// become ready (and leaves nothing running behind it).

const seconds = (ms) => `${Number((ms / 1000).toFixed(2))} s`;
const describeExit = (code, signal) => (signal ? `signal ${signal}` : `exit code ${code}`);
/** A ChildProcess killed by a signal keeps exitCode null: signalCode says it has gone. */
export const hasExited = (child) => child.exitCode !== null || Boolean(child.signalCode);

/** Resolves when `child` has exited (at once if it already has); SIGKILL after `timeoutMs`. */
export function waitForExit(child, timeoutMs = 15_000) {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * @param {object} o
 * @param {string} o.name                 how the log names it ("api :4001")
 * @param {() => Promise<any>} o.launch   starts it; resolves with the process once it is ready
 * @param {(line: string) => void} [o.log]
 * @param {number} [o.initialDelayMs]     first back-off (500)
 * @param {number} [o.maxDelayMs]         longest back-off (10,000)
 * @param {number} [o.resetAfterMs]       a run this long resets the back-off (30,000)
 * @param {number} [o.stopTimeoutMs]      how long SIGTERM may take before SIGKILL (15,000)
 * @param {(child: any) => void} [o.onUp] told each time a (new) process is ready
 * @param {() => number} [o.now]          the clock runs are measured on (Date.now); a test passes its own
 */
export function supervise(o) {
  const log = o.log ?? ((line) => console.error(line));
  const initialDelayMs = o.initialDelayMs ?? 500;
  const maxDelayMs = o.maxDelayMs ?? 10_000;
  const resetAfterMs = o.resetAfterMs ?? 30_000;
  const stopTimeoutMs = o.stopTimeoutMs ?? 15_000;
  const now = o.now ?? Date.now;
  let current = null;
  let upSince = 0;
  let failures = 0;
  let stopped = false;
  let timer = null;
  let restarts = 0;
  // Exits we asked for (restart, stop): not deaths.
  const expected = new WeakSet();

  const watch = (child) => {
    current = child;
    upSince = now();
    o.onUp?.(child);
    const onExit = (code, signal) => {
      if (stopped || expected.has(child) || current !== child) return;
      current = null;
      died(`${o.name} (pid ${child.pid}) died: ${describeExit(code, signal)}`);
    };
    if (hasExited(child)) onExit(child.exitCode, child.signalCode);
    else child.once('exit', onExit);
  };

  const died = (what) => {
    if (upSince && now() - upSince >= resetAfterMs) failures = 0;
    upSince = 0;
    const delay = Math.min(initialDelayMs * 2 ** failures, maxDelayMs);
    failures += 1;
    log(`cluster: ${what}; restarting in ${seconds(delay)} (attempt ${failures})`);
    timer = setTimeout(relaunch, delay);
  };

  // The launch after a death, while it runs: restart() waits for it rather than start a second process.
  let relaunching = null;
  const relaunch = () => {
    relaunching = relaunchOnce().finally(() => {
      relaunching = null;
    });
  };
  const relaunchOnce = async () => {
    timer = null;
    // Stopped, or already brought back by restart().
    if (stopped || current) return;
    const started = now();
    try {
      const child = await o.launch();
      if (stopped) {
        expected.add(child);
        child.kill('SIGTERM');
        return;
      }
      restarts += 1;
      log(`cluster: ${o.name} is back (pid ${child.pid}, ready in ${seconds(now() - started)})`);
      watch(child);
    } catch (error) {
      if (!stopped && !current) died(`${o.name} did not start: ${error.message}`);
    }
  };

  return {
    name: o.name,
    /** The running process, or null while it is down. */
    get current() {
      return current;
    },
    /** How many times it was started again after a death. */
    get restarts() {
      return restarts;
    },
    /** The first start: rejects (nothing supervised) when it does not become ready. */
    async start() {
      watch(await o.launch());
      return current;
    },
    /**
     * Replaces the running process: SIGTERM (it drains and exits), then a new one, resolved once it is
     * ready. Rejects when the new one does not start (supervision then goes on with its back-off).
     */
    async restart() {
      if (stopped) throw new Error(`${o.name} is stopped`);
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      if (relaunching) await relaunching;
      const old = current;
      current = null;
      if (old) {
        expected.add(old);
        old.kill('SIGTERM');
        await waitForExit(old, stopTimeoutMs);
      }
      try {
        const child = await o.launch();
        if (stopped) {
          expected.add(child);
          child.kill('SIGTERM');
          return child;
        }
        failures = 0;
        watch(child);
        return child;
      } catch (error) {
        if (!stopped) died(`${o.name} did not start: ${error.message}`);
        throw error;
      }
    },
    /** Ends it for good: SIGTERM (SIGKILL after the stop timeout); resolves once it has exited. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const child = current;
      if (!child) return;
      expected.add(child);
      if (!hasExited(child)) child.kill('SIGTERM');
      await waitForExit(child, stopTimeoutMs);
    },
  };
}
