import type { MiddlewareHandler } from 'hono';

export interface ExpensiveLimitOptions {
  /** Expensive requests that may run at once; the others wait. */
  concurrency: number;
  /** The longest a request may wait for its turn; a longer wait is answered 503 at once. */
  maxWaitMs: number;
  /** Seconds a refused client is told to wait (Retry-After). */
  retryAfterSeconds: number;
}

export const BUSY_MESSAGE = 'The server is busy with other searches. Please try again in a moment.';

/**
 * A concurrency limit with a bounded wait for expensive endpoints (full-text search): issue 17's
 * "no request freezes the others". Every admitted request first yields to the event loop (setImmediate),
 * so requests that already arrived (a health check, a single read) are parsed and served before the
 * expensive work runs, and other expensive requests reach this queue instead of piling up unseen in the
 * socket buffers. A request that cannot start within `maxWaitMs` gets 503 with Retry-After, costing
 * microseconds, instead of joining a queue that takes minutes to drain.
 */
export function expensiveLimit(opts: ExpensiveLimitOptions): MiddlewareHandler {
  let running = 0;
  const waiting: { deadline: number; start: () => void }[] = [];

  const release = () => {
    running--;
    // Waiters past their deadline are refused (their own timer fires on the next tick); the next one runs.
    while (waiting.length > 0 && running < opts.concurrency) {
      const next = waiting.shift()!;
      if (performance.now() <= next.deadline) {
        running++;
        next.start();
      }
    }
  };

  const busy = () =>
    new Response(JSON.stringify({ error: BUSY_MESSAGE }), {
      status: 503,
      headers: { 'Content-Type': 'application/json', 'Retry-After': String(opts.retryAfterSeconds) },
    });

  return async (_c, next) => {
    if (running >= opts.concurrency) {
      if (opts.maxWaitMs <= 0) return busy();
      const admitted = await new Promise<boolean>((resolve) => {
        const entry = {
          deadline: performance.now() + opts.maxWaitMs,
          start: () => {
            clearTimeout(timer);
            resolve(true);
          },
        };
        const timer = setTimeout(() => {
          const i = waiting.indexOf(entry);
          if (i >= 0) waiting.splice(i, 1);
          resolve(false);
        }, opts.maxWaitMs);
        waiting.push(entry);
      });
      if (!admitted) return busy();
    } else {
      running++;
    }
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await next();
    } finally {
      release();
    }
  };
}
