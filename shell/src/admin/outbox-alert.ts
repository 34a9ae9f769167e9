import { api } from '@app/api-client';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { type OutboxSummary, OutboxSummarySchema } from '@app/contracts/outbox';

/** Delivery is failing now: the newest attempt on record failed (nothing was delivered after it). */
export const deliveryFailing = (s: OutboxSummary): boolean =>
  s.lastError !== null && (s.lastSentAt === null || s.lastError.at > s.lastSentAt);

/** The mails an administrator should look at: the failed ones, and the waiting ones while delivery fails. */
export const attentionCount = (s: OutboxSummary): number =>
  s.counts.failed + (deliveryFailing(s) ? s.counts.pending + s.counts.sending : 0);

/** The Admin menu asks at most this often, however many pages the administrator opens meanwhile. */
const FRESH_MS = 60_000;
let cached: { at: number; count: Promise<number> } | null = null;

/**
 * The Admin menu's badge: a chunk of its own, loaded only once the session is an administrator's, so a
 * visitor's page carries neither the schema nor the request. Both copies of the menu (desktop row and
 * mobile drawer) share one answer. A failure shows no badge: the menu must not break over a warning.
 */
export function outboxAttention(): Promise<number> {
  if (!cached || Date.now() - cached.at > FRESH_MS) {
    cached = {
      at: Date.now(),
      count: api.get(ADMIN_PATHS.outboxSummary, OutboxSummarySchema).then(attentionCount, () => 0),
    };
  }
  return cached.count;
}

/** The menus showing the count: told when the outbox page reads a newer summary, so the two agree. */
const listeners = new Set<(count: number) => void>();

export function onOutboxAttention(listener: (count: number) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The outbox page's newest summary: the cache and every badge take it. */
export function publishOutboxSummary(summary: OutboxSummary): void {
  const count = attentionCount(summary);
  cached = { at: Date.now(), count: Promise.resolve(count) };
  for (const listener of listeners) listener(count);
}

/** For tests. */
export function forgetOutboxAttention(): void {
  cached = null;
}
