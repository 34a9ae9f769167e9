/**
 * Where the rate limits keep their counters: somewhere every API instance sees (the database), so two
 * instances behind one proxy share one budget per client. SQLite today (sqlite-store.ts); a PostgreSQL
 * store (issue 12) implements the same interface. Methods may return promises for such a store.
 */
type Maybe<T> = T | Promise<T>;

export interface Hit {
  /** Hits of this key in its current window, this one included. */
  hits: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
}

/** One limit refusing one subject (an address or an account), summed for the operator. */
export interface Refusal {
  limit: string;
  subject: string;
  route: string;
  count: number;
  firstAt: number;
  lastAt: number;
}

export interface RateLimitStore {
  /**
   * Counts one hit of `key` atomically. A key's window starts at its first hit and lasts `windowMs`;
   * a hit after it starts a new window.
   */
  hit(key: string, windowMs: number, now: number): Maybe<Hit>;
  /** Takes one hit back (a request the limit decided not to count after all). */
  undo(key: string): Maybe<void>;
  /** Forgets a key's counter. */
  reset(key: string): Maybe<void>;
  /** Notes one refused request for the operator's view (`pnpm admin limited`). */
  refused(limit: string, subject: string, route: string, now: number): Maybe<void>;
  /** Refusals last seen at or after `since`, the most recent first. */
  refusals(since: number): Maybe<Refusal[]>;
}
