import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLLOUT_MESSAGES } from '../src/services/rollout-messages';
import { event, ticketFor } from './health-tickets';
import { limitsWith, startTestServer, type TestServer, type TestUser, tempRollout } from './helpers';
import { ACCOUNT_V1, release, V1, V2 } from './rollout-fixtures';

const HEALTH = API_PATHS.rolloutHealth;
const M = ROLLOUT_MESSAGES.refused;
const report = (events = [event()], ticket = ticketFor()) => ({ ticket, events });
/** The ticket with its signature's first character changed (the last one's low bits are padding). */
const tamperedSignature = (ticket: string) => {
  const dot = ticket.indexOf('.');
  const first = ticket[dot + 1];
  return `${ticket.slice(0, dot + 1)}${first === 'A' ? 'B' : 'A'}${ticket.slice(dot + 2)}`;
};

let s: TestServer;
let admin: TestUser;
beforeAll(async () => {
  const rollout = tempRollout();
  release(rollout.paths, 'mf-research', V1);
  release(rollout.paths, 'mf-research', V2);
  release(rollout.paths, 'mf-account', ACCOUNT_V1);
  s = await startTestServer({ rollout });
  admin = await s.user(['admin'], 'admin');
});
afterAll(() => s.close());

const visitorsOf = (remote: 'mf-research' | 'mf-account', version: string) =>
  s.ctx.rollout.health.visitors('production', remote, version);
const refusals = async () =>
  Object.fromEntries((await s.ctx.rollout.health.refusals(0)).map((r) => [r.reason, r.count])) as Record<
    string,
    number
  >;

describe('POST /api/rollout/health', () => {
  it("counts a page view's report with its ticket (204), in the admin view and the CLI store", async () => {
    const visitor = 'anon:counted-visitor-0001';
    const ticket = ticketFor({ visitor, canary: true });
    const r = await s.post(HEALTH, {
      ticket,
      events: [
        event({ version: V2, kind: 'load', value: 300 }),
        event({ version: V2, kind: 'runtime-error', value: undefined }),
        event({ version: V2, kind: 'lcp', value: 1800 }),
        event({ version: V2, kind: 'inp', value: 96 }),
        event({ version: V2, kind: 'cls', value: 0.04 }),
      ],
    });
    expect(r.status).toBe(204);
    expect(r.body).toBeNull();
    expect(await visitorsOf('mf-research', V2)).toEqual([
      { views: 1, errorViews: 1, lcp: 1800, inp: 96, cls: 0.04 },
    ]);
    const view = await s.get(ADMIN_PATHS.rollouts, admin.token);
    expect(view.status).toBe(200);
    expect(view.body.health.find((h: { version: string }) => h.version === V2)).toMatchObject({
      remote: 'mf-research',
      visitors: 1,
      views: 1,
      errorRate: 1,
      lcp: 1800,
      inp: 96,
      cls: 0.04,
    });
    const chart = view.body.charts.find((c: { remote: string }) => c.remote === 'mf-research');
    expect(chart.series).toContainEqual(
      expect.objectContaining({
        track: 'canary',
        version: V2,
        points: [expect.objectContaining({ visitors: 1, errorRate: 1 })],
      }),
    );
  });

  it('takes reports on the stable version a canary fell back to, as stable', async () => {
    const ticket = ticketFor({ canary: true });
    const before = (await visitorsOf('mf-research', V1)).length;
    const r = await s.post(HEALTH, {
      ticket,
      events: [
        event({ version: V2, kind: 'load-failure', value: 8000 }),
        event({ version: V1, kind: 'load' }),
      ],
    });
    expect(r.status).toBe(204);
    expect((await visitorsOf('mf-research', V1)).length).toBe(before + 1);
    const tracks = await s.sql.all<{ track: string }>(
      'SELECT track FROM rollout_health_signals WHERE ticket = (SELECT ticket FROM rollout_health_signals ORDER BY id DESC LIMIT 1) ORDER BY id',
    );
    expect(tracks.map((t) => t.track)).toEqual(['canary', 'stable']);
  });

  it('counts per visitor: 50 reloads are one visitor with a rate, not 50 samples', async () => {
    const rollout = tempRollout();
    const own = await startTestServer({ rollout });
    try {
      for (let i = 0; i < 50; i++) {
        const events = [event()];
        if (i < 10) events.push(event({ kind: 'render-error', value: undefined }));
        events.push(event({ kind: 'lcp', value: 1000 + i }));
        expect((await own.post(HEALTH, report(events, ticketFor({ visitor: 'user:7' })))).status).toBe(204);
      }
      expect((await own.post(HEALTH, report([event()], ticketFor({ visitor: 'user:8' })))).status).toBe(204);
      const visitors = await own.ctx.rollout.health.visitors('production', 'mf-research', V1);
      expect(visitors).toHaveLength(2);
      expect(visitors).toContainEqual({ views: 50, errorViews: 10, lcp: 1024.5, inp: null, cls: null });
      const row = (await own.get(ADMIN_PATHS.rollouts, (await own.user(['admin'], 'admin')).token)).body
        .health[0];
      // The mean of the visitors' rates (0.2 and 0), not 10 errors in 51 views.
      expect(row).toMatchObject({ visitors: 2, views: 51, errorRate: 0.1 });
    } finally {
      await own.close();
    }
  });

  it('stores no personal data: pseudonyms of the visitor and address group, never their key, id, address or URL', async () => {
    const address = '198.51.100.42';
    await s.post(HEALTH, report([event()], ticketFor({ visitor: 'user:4242', address })));
    const columns = Object.keys((await s.sql.get('SELECT * FROM rollout_health_signals LIMIT 1')) ?? {});
    expect(columns).toEqual([
      'id',
      'remote',
      'version',
      'track',
      'kind',
      'value',
      'visitor',
      'ticket',
      'at',
      'environment',
      'address',
    ]);
    const rows = await s.sql.all<{ visitor: string; address: string }>(
      'SELECT visitor, address FROM rollout_health_signals',
    );
    expect(rows.some((r) => r.visitor.includes('4242') || r.visitor.includes('user'))).toBe(false);
    expect(rows.every((r) => /^[\w-]{16}$/.test(r.address))).toBe(true);
    expect(rows.some((r) => r.address.includes('198.51'))).toBe(false);
  });

  describe('refuses with 400, counts nothing but the refusal', () => {
    const countedRows = async () =>
      Number((await s.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM rollout_health_signals'))?.n);

    it('a report without a ticket, or with a made-up one', async () => {
      const before = { rows: await countedRows(), refused: await refusals() };
      const withoutTicket = await s.post(HEALTH, { events: [event()] });
      expect(withoutTicket.status).toBe(400);
      expect(withoutTicket.body.error).toMatch(/ticket/);
      // The old unauthenticated shape is refused too.
      const old = await s.post(HEALTH, {
        remote: 'mf-research',
        version: V1,
        track: 'canary',
        event: 'load',
      });
      expect(old.status).toBe(400);
      for (const ticket of [
        'x',
        'a.b',
        'not-a-ticket.at-all',
        tamperedSignature(ticketFor()),
        `${ticketFor()}x`,
      ]) {
        const r = await s.post(HEALTH, report([event()], ticket));
        expect(r.status, ticket).toBe(400);
        expect([M.forged, M.malformed]).toContain(r.body.error);
      }
      expect(await countedRows()).toBe(before.rows);
      const after = await refusals();
      expect((after.malformed ?? 0) + (after.forged ?? 0)).toBe(
        (before.refused.malformed ?? 0) + (before.refused.forged ?? 0) + 7,
      );
    });

    it('a ticket whose claims were edited, or signed with another key (forged)', async () => {
      const [payload, signature] = ticketFor().split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      claims.r['mf-research'] = [V2, 'c', V1];
      const edited = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      const otherKey = ticketFor({ key: Buffer.alloc(32, 7) });
      for (const ticket of [edited, otherKey]) {
        const r = await s.post(HEALTH, report([event({ version: V2 })], ticket));
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: M.forged });
      }
    });

    it('an expired ticket', async () => {
      const before = (await refusals()).expired ?? 0;
      const ticket = ticketFor({ now: Date.now() - 2 * 3600_000 });
      const r = await s.post(HEALTH, report([event()], ticket));
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: M.expired });
      expect((await refusals()).expired).toBe(before + 1);
    });

    it("another version's ticket, another remote's, or a stable visitor's ticket claiming the canary", async () => {
      const before = { rows: await countedRows(), mismatched: (await refusals()).mismatched ?? 0 };
      const cases = [
        // served stable V1: cannot report on the canary V2 (another cohort's version)
        report([event({ version: V2 })], ticketFor()),
        // served mf-research only: nothing to say about mf-account
        report([event({ remote: 'mf-account', version: ACCOUNT_V1 })], ticketFor()),
        // one bad event spoils the batch: nothing of it is stored
        report([event(), event({ version: V2, kind: 'render-error', value: undefined })], ticketFor()),
      ];
      for (const body of cases) {
        const r = await s.post(HEALTH, body);
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: M.mismatched });
      }
      expect(await countedRows()).toBe(before.rows);
      expect((await refusals()).mismatched).toBe(before.mismatched + 3);
    });

    it('a replayed ticket: each kind counts once per ticket and version', async () => {
      const ticket = ticketFor();
      expect((await s.post(HEALTH, report([event()], ticket))).status).toBe(204);
      const rows = await countedRows();
      const before = (await refusals()).replayed ?? 0;
      for (const body of [
        report([event()], ticket),
        report([event({ value: 999 })], ticket),
        // a new kind beside a replayed one: refused whole, the new one is not stored either
        report([event({ kind: 'lcp', value: 900 }), event()], ticket),
        // the same kind twice in one report
        report([event({ kind: 'inp', value: 10 }), event({ kind: 'inp', value: 20 })], ticketFor()),
      ]) {
        const r = await s.post(HEALTH, body);
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: M.replayed });
      }
      expect(await countedRows()).toBe(rows);
      expect((await refusals()).replayed).toBe(before + 4);
      // A kind not yet sent with that ticket still counts (a page hidden twice sends what is new).
      expect((await s.post(HEALTH, report([event({ kind: 'lcp', value: 900 })], ticket))).status).toBe(204);
    });

    it('a Web Vital without its value, an unknown kind or remote, or an extra field', async () => {
      for (const e of [
        { ...event({ kind: 'lcp' }), value: undefined },
        { ...event(), kind: 'click' },
        { ...event(), remote: 'shell' },
        { ...event(), value: -1 },
        { ...event(), url: 'https://example.com/?email=a@b.c' },
      ]) {
        const r = await s.post(HEALTH, { ticket: ticketFor(), events: [e] });
        expect(r.status, JSON.stringify(e)).toBe(400);
        expect(typeof r.body.error).toBe('string');
      }
    });

    it('shows administrators what was refused, by reason', async () => {
      const view = await s.get(ADMIN_PATHS.rollouts, admin.token);
      const byReason = Object.fromEntries(
        view.body.refusals.map((r: { reason: string; count: number }) => [r.reason, r.count]),
      );
      expect(byReason).toEqual(await refusals());
      expect(byReason.forged).toBeGreaterThan(0);
      expect(byReason.replayed).toBeGreaterThan(0);
    });
  });

  it('answers garbage with a 4xx, never a 5xx', async () => {
    const raw = [
      '',
      'null',
      '[]',
      '"load"',
      '42',
      'true',
      '{"remote":',
      '{"remote":{"a":1}}',
      '\u0000\u00ff',
    ];
    for (const rawBody of raw) {
      const r = await s.req('POST', HEALTH, { rawBody });
      expect(r.status, rawBody).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    const big = await s.req('POST', HEALTH, {
      rawBody: JSON.stringify({ ...report(), pad: 'x'.repeat(10_000) }),
    });
    expect(big.status).toBe(413);
    const wrongType = await s.req('POST', HEALTH, {
      rawBody: '<xml/>',
      headers: { 'content-type': 'text/xml' },
    });
    expect(wrongType.status).toBe(400);
  });

  it('takes a text/plain body too (navigator.sendBeacon sends one, without a preflight)', async () => {
    const r = await s.req('POST', HEALTH, {
      rawBody: JSON.stringify(report()),
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    });
    expect(r.status).toBe(204);
  });

  it('can be called cross-origin from the shell: preflight for Content-Type, then Allow-Origin', async () => {
    const origin = 'http://localhost:3000';
    const pre = await s.req('OPTIONS', HEALTH, {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    const r = await s.req('POST', HEALTH, { body: report(), headers: { origin } });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
  });
});

describe('health report rate limit', () => {
  it('answers 429 with Retry-After after N reports a minute from one address', async () => {
    const rollout = tempRollout();
    release(rollout.paths, 'mf-research', V1);
    const limited = await startTestServer({
      rollout,
      rateLimits: limitsWith({ health: { limit: 3, windowMs: 60_000 } }),
    });
    try {
      for (let i = 0; i < 3; i++) expect((await limited.post(HEALTH, report())).status).toBe(204);
      const r = await limited.post(HEALTH, report());
      expect(r.status).toBe(429);
      expect(r.body).toEqual({ error: ROLLOUT_MESSAGES.tooManyHealthReports });
      const retry = Number(r.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      // Refused reports are not stored.
      expect(await limited.ctx.rollout.health.visitors('production', 'mf-research', V1)).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});
