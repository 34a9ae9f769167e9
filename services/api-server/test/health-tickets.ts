import type { HealthEvent } from '@app/contracts';
import { type HealthTicket, issueTicket, ticketKey } from '@app/rollout/node';
import { TEST_EDGE_SECRET } from './helpers';
import { V1, V2 } from './rollout-fixtures';

/** Health tickets as the edge issues them, with the API tests' edge secret. */
export const KEY = ticketKey(TEST_EDGE_SECRET);

/** A page view served mf-research V1 (stable) by default; `canary` serves V2 with V1 to fall back to. */
export function ticketFor(
  o: {
    visitor?: string;
    canary?: boolean;
    remotes?: HealthTicket['remotes'];
    now?: number;
    ttlMs?: number;
    key?: Buffer;
  } = {},
): string {
  const remotes: HealthTicket['remotes'] = o.remotes ?? {
    'mf-research': o.canary
      ? { version: V2, track: 'canary', fallback: V1 }
      : { version: V1, track: 'stable', fallback: null },
  };
  return issueTicket(
    {
      visitorKey: o.visitor ?? `anon:${Math.random().toString(36).slice(2)}xxxxxxxxxxxxxxxx`,
      remotes,
      now: o.now,
      ttlMs: o.ttlMs,
    },
    o.key ?? KEY,
  ).ticket;
}

export const event = (over: Partial<HealthEvent> = {}): HealthEvent => ({
  remote: 'mf-research',
  version: V1,
  kind: 'load',
  value: 120,
  ...over,
});
