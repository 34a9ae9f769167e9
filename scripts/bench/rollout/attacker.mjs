// The attacker of `pnpm bench:rollout` (scripts/bench-rollout.mjs): reports no page view of theirs can back
// (issue 31: before tickets, one script could promote a broken canary or block a healthy one). Everything an
// attacker can get is used: a few real page views of their own (each sends its one honest report first, as
// the shell would), then `total` reports of five kinds, sent as fast as the API takes them:
//   random token       a token of random bytes shaped like a ticket (payload.signature), or not even that
//   edited claims      a real ticket's claims changed (the canary's version and track, another visitor,
//                      a later expiry, a fresh id) and re-encoded, with the original signature
//   signature swapped  one real ticket's claims with another real ticket's signature
//   replayed           a real ticket re-sent with the kinds its page view already reported
//   replayed, canary   a real (stable) ticket re-sent claiming the canary's version
// Counted: the answers (204 must be 0), the 400s by the API's message, and (store.mjs) what the database
// holds before and after: rows of reports, the canary's and stable's visitors, and the refusals counted apart.
import { randomBytes } from 'node:crypto';
import { pageView, sendReport } from './client.mjs';
import { PROFILES, pageViewEvents, REMOTE } from './visitors.mjs';

const CONTAINER = 'mf_public_pages';
const KINDS = [
  ['random token', 0.25],
  ['edited claims', 0.25],
  ['signature swapped', 0.15],
  ['replayed', 0.25],
  ['replayed, canary', 0.1],
];

/** The API's refusal texts (services/api-server/src/services/rollout-messages.ts) by the reason they name. */
const REASONS = [
  [/not well-formed/, 'malformed'],
  [/not one we issued/, 'forged'],
  [/expired/, 'expired'],
  [/already reported/, 'replayed'],
  [/not served that version/, 'mismatched'],
  [/too many/i, 'rate-limited'],
];
const reasonOf = (error) => REASONS.find(([re]) => re.test(error ?? ''))?.[1] ?? `other: ${error}`;

const b64 = (value) => Buffer.from(value).toString('base64url');
const claimsOf = (ticket) => JSON.parse(Buffer.from(ticket.split('.')[0], 'base64url').toString('utf8'));

/** The ways to edit a real ticket's claims; the signature stays the original's. */
const EDITS = [
  (c, canary) => ({ ...c, r: { ...c.r, [REMOTE]: [canary, 'c', c.r[REMOTE]?.[0] ?? null] } }),
  (c) => ({ ...c, k: randomBytes(12).toString('base64url') }),
  (c) => ({ ...c, e: c.e + 30 * 24 * 3600 }),
  (c) => ({ ...c, i: randomBytes(12).toString('base64url') }),
];

function randomToken(n) {
  if (n % 5 === 0) return randomBytes(8 + (n % 200)).toString('hex'); // not even payload.signature
  return `${randomBytes(60 + (n % 200)).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
}

/**
 * @param {{ url: string, canaryVersion: string, total: number, concurrency: number,
 *   snapshot: () => Promise<object>, log: (line: string) => void }} o
 */
export async function attack({ url, canaryVersion, total, concurrency, snapshot, log }) {
  // The attacker's own page views: real tickets, each used once honestly (as a real page would).
  const own = [];
  for (let i = 0; i < 6; i++) {
    const page = await pageView(url, null);
    const version = page.plan.plan[CONTAINER].version;
    const events = pageViewEvents(version, PROFILES.stable, 'attacker');
    const honest = await sendReport(page.apiBaseUrl, { ticket: page.ticket, events });
    if (honest.status !== 204)
      throw new Error(`the attacker's own page view's report was refused: ${honest.error}`);
    own.push({ ...page, version, events });
  }
  const apiBaseUrl = own[0].apiBaseUrl;
  if (own.some((p) => p.version === canaryVersion))
    throw new Error(`a canary of ${canaryVersion} is running: the attacker phase needs stable only`);

  const bodyOf = (kind, n) => {
    const page = own[n % own.length];
    const events = page.events.filter((e) => e.kind !== 'runtime-error');
    switch (kind) {
      case 'random token':
        return { ticket: randomToken(n), events };
      case 'edited claims': {
        const claims = EDITS[n % EDITS.length](claimsOf(page.ticket), canaryVersion);
        const onCanary = n % EDITS.length === 0;
        return {
          ticket: `${b64(JSON.stringify(claims))}.${page.ticket.split('.')[1]}`,
          events: onCanary ? events.map((e) => ({ ...e, version: canaryVersion })) : events,
        };
      }
      case 'signature swapped': {
        const other = own[(n + 1) % own.length];
        return { ticket: `${page.ticket.split('.')[0]}.${other.ticket.split('.')[1]}`, events };
      }
      case 'replayed':
        // The same kinds again, with whatever values would move the figures.
        return {
          ticket: page.ticket,
          events: events.map((e) => (e.value === undefined ? e : { ...e, value: e.value * 3 })),
        };
      case 'replayed, canary':
        return { ticket: page.ticket, events: events.map((e) => ({ ...e, version: canaryVersion })) };
    }
    throw new Error(`unknown kind ${kind}`);
  };

  const plan = [];
  for (const [kind, share] of KINDS) for (let i = 0; i < Math.round(total * share); i++) plan.push(kind);
  while (plan.length < total) plan.push('random token');
  plan.length = total;

  const before = await snapshot();
  const began = Date.now();
  const byKind = Object.fromEntries(KINDS.map(([kind]) => [kind, { sent: 0, statuses: {}, reasons: {} }]));
  const statuses = {};
  const reasons = {};
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const n = next++;
      const kind = plan[n];
      const { status, error } = await sendReport(apiBaseUrl, bodyOf(kind, n));
      const k = byKind[kind];
      k.sent += 1;
      k.statuses[status] = (k.statuses[status] ?? 0) + 1;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 204) {
        const reason = reasonOf(error);
        k.reasons[reason] = (k.reasons[reason] ?? 0) + 1;
        reasons[reason] = (reasons[reason] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (Date.now() - began) / 1000;
  const after = await snapshot();
  log(`attacker: ${total} reports in ${seconds.toFixed(1)} s; answers ${JSON.stringify(statuses)}`);
  return { sent: total, seconds, accepted: statuses[204] ?? 0, statuses, reasons, byKind, before, after };
}
