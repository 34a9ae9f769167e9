// How many new visitors one client address may become (issue 44, docs/decisions/0036-render-sandbox.md). A
// visitor's page views earn health tickets, and the health gate weighs a version by its visitors: if every
// cookieless request were a new, counted visitor, a script could draw the canary's cohort and speak for 50
// "visitors". Past the limit an address still gets its pages and a cohort that sticks (a visitor cookie), but
// an uncounted one (visitor-cookie.ts): its page views get no ticket, so they never reach the gate. The limit
// is per edge instance and per address group (an IPv6 /64 is one address, as for the API's limits).
import { addressKey } from '@app/client-address';
import type { LimitSpec } from '@app/client-address/limit-spec';

/** The default: far above what an office or a school behind one address brings in an hour. */
export const DEFAULT_NEW_VISITOR_LIMIT: LimitSpec = { limit: 300, windowMs: 3_600_000 };

/** Addresses remembered at once; past it the oldest windows are forgotten (memory stays bounded). */
const MAX_ADDRESSES = 100_000;

export class NewVisitorLimit {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly spec: LimitSpec = DEFAULT_NEW_VISITOR_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one new visitor for this client address; false when its window's share is used up. */
  take(address: string): boolean {
    const key = addressKey(address);
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.spec.windowMs) {
      this.windows.delete(key);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
      while (this.windows.size > MAX_ADDRESSES)
        this.windows.delete(this.windows.keys().next().value as string);
    }
    if (window.count >= this.spec.limit) return false;
    window.count += 1;
    return true;
  }
}
