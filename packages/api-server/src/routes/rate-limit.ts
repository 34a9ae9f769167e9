import type { HttpBindings } from '@hono/node-server';
import type { C } from './http-helpers';

/** Distinct clients tracked per window; past it, new clients wait for the next window (bounded memory). */
const MAX_KEYS = 50_000;

export interface FixedWindowLimiter {
  /** Counts one request of `key`: 0 when allowed, else the whole seconds until the window ends. */
  hit(key: string, now?: number): number;
}

/**
 * An in-memory fixed-window limit: at most `limit` requests per key per window, every key's window aligned
 * to the clock, so the whole map is simply dropped when the window turns.
 */
export function createFixedWindowLimiter(limit: number, windowMs: number): FixedWindowLimiter {
  let windowStart = Number.NaN;
  const hits = new Map<string, number>();
  return {
    hit(key, now = Date.now()) {
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        hits.clear();
      }
      const count = hits.get(key);
      if (count === undefined && hits.size >= MAX_KEYS) return retryAfter(start + windowMs, now);
      const next = (count ?? 0) + 1;
      if (next > limit) return retryAfter(start + windowMs, now);
      hits.set(key, next);
      return 0;
    },
  };
}

const retryAfter = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));

/**
 * The client's socket address as a rate-limit key (never a forwarded header, which anyone can forge).
 * An IPv6 client usually owns a whole /64, so it counts as one.
 */
export function clientKey(c: C): string {
  const address = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
  return address ? addressKey(address) : 'unknown';
}

export function addressKey(address: string): string {
  const plain = address.split('%')[0] ?? address;
  if (!plain.includes(':')) return plain;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(plain);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = plain.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
