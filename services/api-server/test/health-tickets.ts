import type { HealthEvent } from '@app/contracts';
import type { RemotePackage } from '@app/rollout';
import { type HealthTicket, issueTicket, ticketKey } from '@app/rollout/node';
import { TEST_EDGE_SECRET } from './helpers';
import { V1, V2 } from './rollout-fixtures';

/** Health tickets as the edge issues them, with the API tests' edge secret. */
export const KEY = ticketKey(TEST_EDGE_SECRET);

let addresses = 0;
/** An address group no other ticket of this run was given (as a fresh visitor from elsewhere has). */
export const newAddress = () => {
  addresses += 1;
  return `2001:db8:${addresses.toString(16)}:0::/64`;
};

/**
 * A page view in production served mf-research V1 (stable) by default; `canary` serves V2 with V1 to fall
 * back to. Each ticket comes from an address group of its own unless `address` names one.
 */
export function ticketFor(
  o: {
    visitor?: string;
    canary?: boolean;
    remotes?: HealthTicket['remotes'];
    environment?: string;
    address?: string;
    renderFailures?: RemotePackage[];
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
      environment: o.environment ?? 'production',
      address: o.address ?? newAddress(),
      remotes,
      renderFailures: o.renderFailures,
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
