/**
 * A process's log lines as a test collects them, and waits for the next one it expects. A line is the event
 * (the supervisor logs each death, each failed launch and each process back): nothing is polled.
 */
export function lineLog() {
  const lines = [];
  const waiters = new Set();
  return {
    lines,
    log: (line) => {
      lines.push(line);
      for (const wake of [...waiters]) wake();
    },
    /** Resolves with the first line from `lines[from]` on that `match` accepts; fails after `ms`, naming `what`. */
    waitFor(match, from = 0, ms = 5000, what = 'no such line') {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${what}: not within ${ms} ms\n${lines.join('\n')}`));
        }, ms);
        function check() {
          const line = lines.slice(from).find(match);
          if (line === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(line);
        }
        waiters.add(check);
        check();
      });
    },
  };
}
