import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ENVIRONMENT_NAME_PATTERN } from './manifest';
import type { RemoteChoice } from './plan';
import type { ContainerName } from './remotes';
import { isRemotePackage, type RemotePackage } from './remotes';
import { MAX_TICKET_LENGTH } from './ticket-length';
import { isVersionId } from './version-id';

export { MAX_TICKET_LENGTH };

/**
 * Health tickets (docs/decisions/0027-health-gate.md): the edge gives each page view a short-lived ticket,
 * signed with a key derived from its secret, naming the visitor (a pseudonym of their cohort key) and the
 * version of each remote that page was served, with the stable version it may fall back to. A health report
 * counts only with a valid ticket for the version it reports on, once per kind of event: a script that never
 * loaded a page has no ticket, and one ticket cannot be replayed into many samples.
 *
 * Since issue 44 a ticket also names the environment whose deployment chose those versions (reports are
 * read per environment), a pseudonym of the client's address group (the gate counts at most a few visitors
 * per address), and the remotes whose first screen the edge failed to render on the server for this page
 * view (the API records those itself: a browser cannot claim or hide them).
 *
 * Token: `base64url(claims).base64url(HMAC-SHA256(claims))`; claims are
 * `{"i":id,"k":visitor,"n":environment,"a":address,"e":expiry seconds,
 *   "r":{"<remote>":["<version>","s|c|p","<fallback>"|null]},"x":["<remote>",…]}` (`x` only when not empty).
 */
export type TicketTrack = 'stable' | 'canary' | 'preview';

export interface TicketRemote {
  version: string;
  track: TicketTrack;
  /** The stable version the shell falls back to when this one fails (reports may name it too). */
  fallback: string | null;
}

export interface HealthTicket {
  id: string;
  /** A pseudonym of the visitor's cohort key: the same visitor, the same string; never the key itself. */
  visitor: string;
  /** The environment whose deployment served this page view (its reports count only there). */
  environment: string;
  /** A pseudonym of the client's address group (@app/client-address addressKey): never the address itself. */
  address: string;
  /** Expiry, milliseconds since the epoch. */
  expiresAt: number;
  remotes: Partial<Record<RemotePackage, TicketRemote>>;
  /** Remotes whose server-rendered first screen failed on this page view (none: empty). */
  renderFailures: RemotePackage[];
}

export type TicketVerdict =
  | { ok: true; ticket: HealthTicket }
  | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

/** A page view's reports are sent when it is hidden; an hour covers nearly every view, and bounds a leak. */
export const TICKET_TTL_MS = 3600 * 1000;

const TRACK_CODE: Record<TicketTrack, string> = { stable: 's', canary: 'c', preview: 'p' };
const TRACK_OF: Record<string, TicketTrack> = { s: 'stable', c: 'canary', p: 'preview' };

/** The tickets' key, derived from the edge's secret so the two never share a MAC. */
export function ticketKey(edgeSecret: string): Buffer {
  return createHmac('sha256', edgeSecret).update('health-ticket v1').digest();
}

const mac = (payload: string, key: Buffer) => createHmac('sha256', key).update(payload).digest();

const PSEUDONYM = /^[A-Za-z0-9_-]{16}$/;
const pseudonym = (what: 'visitor' | 'address', value: string, key: Buffer) =>
  createHmac('sha256', key).update(`${what}\n${value}`).digest('base64url').slice(0, 16);

export function visitorPseudonym(visitorKey: string, key: Buffer): string {
  return pseudonym('visitor', visitorKey, key);
}

/** The pseudonym of an address group in tickets and stored reports: the same group, the same string. */
export function addressPseudonym(group: string, key: Buffer): string {
  return pseudonym('address', group, key);
}

/** The remotes of a page's plan that have a released version (a config URL has none to report on). */
export function ticketRemotes(plan: Record<ContainerName, RemoteChoice>): HealthTicket['remotes'] {
  const remotes: HealthTicket['remotes'] = {};
  for (const choice of Object.values(plan)) {
    // An override (a dev server) has no version; the edge gives a page under one no ticket at all (issue 47).
    if (choice.version === null || choice.track === 'config' || choice.track === 'override') continue;
    remotes[choice.remote] = {
      version: choice.version,
      track: choice.track,
      fallback: choice.fallback?.version ?? null,
    };
  }
  return remotes;
}

/**
 * A page view's ticket. `address` is the client's address group (@app/client-address addressKey),
 * `renderFailures` the remotes whose first screen the edge failed to render on the server for this page.
 */
export function issueTicket(
  o: {
    visitorKey: string;
    environment: string;
    address: string;
    remotes: HealthTicket['remotes'];
    renderFailures?: RemotePackage[];
    now?: number;
    ttlMs?: number;
  },
  key: Buffer,
): { ticket: string; expiresAt: number } {
  // A name the API would refuse as malformed is the edge's bug: it should fail where it is made.
  if (!ENVIRONMENT_NAME_PATTERN.test(o.environment))
    throw new Error(`"${o.environment}" is not an environment name`);
  const expiresAt = Math.floor(((o.now ?? Date.now()) + (o.ttlMs ?? TICKET_TTL_MS)) / 1000) * 1000;
  const r = Object.fromEntries(
    Object.entries(o.remotes).map(([remote, t]) => [remote, [t.version, TRACK_CODE[t.track], t.fallback]]),
  );
  const failures = [...new Set(o.renderFailures ?? [])];
  const claims = {
    i: randomBytes(12).toString('base64url'),
    k: visitorPseudonym(o.visitorKey, key),
    n: o.environment,
    a: addressPseudonym(o.address, key),
    e: expiresAt / 1000,
    r,
    ...(failures.length > 0 ? { x: failures } : {}),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { ticket: `${payload}.${mac(payload, key).toString('base64url')}`, expiresAt };
}

function claimsOf(payload: string): HealthTicket | null {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const c = raw as Partial<Record<'i' | 'k' | 'n' | 'a' | 'e' | 'r' | 'x', unknown>> | null;
  if (!c || typeof c.i !== 'string' || typeof c.k !== 'string' || typeof c.e !== 'number') return null;
  // Tickets from before issue 44 have no environment or address: refused (they lived an hour at most).
  if (typeof c.n !== 'string' || !ENVIRONMENT_NAME_PATTERN.test(c.n)) return null;
  if (typeof c.a !== 'string' || !PSEUDONYM.test(c.a)) return null;
  if (!c.r || typeof c.r !== 'object') return null;
  const renderFailures = c.x === undefined ? [] : c.x;
  if (!Array.isArray(renderFailures) || !renderFailures.every(isRemotePackage)) return null;
  if (new Set(renderFailures).size !== renderFailures.length) return null;
  const remotes: HealthTicket['remotes'] = {};
  for (const [remote, entry] of Object.entries(c.r as Record<string, unknown>)) {
    if (!isRemotePackage(remote) || !Array.isArray(entry)) return null;
    const [version, code, fallback] = entry as unknown[];
    const track = TRACK_OF[String(code)];
    if (!isVersionId(version) || !track || !(fallback === null || isVersionId(fallback))) return null;
    remotes[remote] = { version, track, fallback };
  }
  return {
    id: c.i,
    visitor: c.k,
    environment: c.n,
    address: c.a,
    expiresAt: c.e * 1000,
    remotes,
    renderFailures,
  };
}

export function verifyTicket(token: unknown, key: Buffer, now = Date.now()): TicketVerdict {
  if (typeof token !== 'string' || token.length > MAX_TICKET_LENGTH)
    return { ok: false, reason: 'malformed' };
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: 'malformed' };
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(payload, key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'forged' };
  const ticket = claimsOf(payload);
  if (!ticket) return { ok: false, reason: 'malformed' };
  if (ticket.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, ticket };
}

/**
 * The track a ticket gives a report on `version` of `remote`: the version it was served, or the stable
 * version it fell back to; null when the ticket does not cover that version (a mismatched report).
 */
export function trackInTicket(
  ticket: HealthTicket,
  remote: RemotePackage,
  version: string,
): TicketTrack | null {
  const entry = ticket.remotes[remote];
  if (!entry) return null;
  if (entry.version === version) return entry.track;
  if (entry.fallback === version) return 'stable';
  return null;
}
