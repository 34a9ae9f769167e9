import { API_PATHS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRolloutHealthStore } from '../src/rollout-health-store';
import { ROLLOUT_MESSAGES } from '../src/services/rollout-messages';
import { limitsWith, startTestServer, type TestServer, type TestUser, tempRollout } from './helpers';
import { ACCOUNT_V1, release, UNRELEASED, V1, V2 } from './rollout-fixtures';

const HEALTH = API_PATHS.rolloutHealth;
const report = (over: Record<string, unknown> = {}) => ({
  remote: 'mf-research',
  version: V1,
  track: 'stable',
  event: 'load',
  ms: 120,
  ...over,
});

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

describe('POST /api/rollout/health', () => {
  it('accepts a report without a token (204) and counts it, in the admin view and the CLI store', async () => {
    for (const event of ['load', 'load', 'load-failure', 'render-error']) {
      const r = await s.post(HEALTH, report({ version: V2, track: 'canary', event }));
      expect(r.status).toBe(204);
      expect(r.body).toBeNull();
    }
    const view = await s.get(API_PATHS.adminRollouts, admin.token);
    expect(view.status).toBe(200);
    const row = view.body.health.find((h: { version: string }) => h.version === V2);
    expect(row).toMatchObject({
      remote: 'mf-research',
      version: V2,
      loads: 2,
      loadFailures: 1,
      renderErrors: 1,
    });
    expect(Date.parse(row.lastAt)).toBeGreaterThan(Date.now() - 60_000);

    const store = await openRolloutHealthStore(s.ctx.config);
    try {
      expect(await store.counts('mf-research', V2)).toEqual({ loads: 2, loadFailures: 1, renderErrors: 1 });
      expect((await store.summary()).find((h) => h.version === V2)).toEqual(row);
    } finally {
      await store.close();
    }
  });

  it('works with a token too, and ignores a stale one (a report carries no user)', async () => {
    const member = await s.user();
    expect(
      (await s.post(HEALTH, report({ remote: 'mf-account', version: ACCOUNT_V1 }), member.token)).status,
    ).toBe(204);
    expect((await s.post(HEALTH, report(), 'not-a-valid-token')).status).toBe(204);
  });

  it('stores no personal data: only remote, version, track, event, duration and time', async () => {
    const columns = Object.keys((await s.sql.get('SELECT * FROM rollout_health_events LIMIT 1')) ?? {});
    expect(columns).toEqual(['id', 'remote', 'version', 'track', 'event', 'ms', 'at']);
  });

  it('refuses an unknown remote, version, track or event, and any extra field, with an error text', async () => {
    const cases: [Record<string, unknown>, string | null][] = [
      [report({ remote: 'mf-nope' }), 'Unknown remote'],
      [report({ remote: 'shell' }), 'Unknown remote'],
      [report({ version: 'latest' }), null],
      [report({ version: '../../etc/passwd' }), null],
      [report({ track: 'beta' }), 'Unknown track'],
      [report({ event: 'click' }), 'Unknown event'],
      [report({ userId: 7 }), null],
      [report({ url: 'https://example.com/?email=a@b.c' }), null],
      [report({ ms: -1 }), null],
      [report({ ms: 1.5 }), null],
      [report({ ms: '100' }), null],
    ];
    for (const [body, error] of cases) {
      const r = await s.post(HEALTH, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error).toBe('string');
      if (error) expect(r.body.error).toBe(error);
    }
  });

  it('refuses a version that is not released for that remote', async () => {
    for (const body of [
      report({ version: UNRELEASED }),
      // released, but for mf-account only
      report({ remote: 'mf-research', version: ACCOUNT_V1 }),
    ]) {
      const r = await s.post(HEALTH, body);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: ROLLOUT_MESSAGES.unknownRelease });
    }
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
    const big = await s.req('POST', HEALTH, { rawBody: JSON.stringify(report({ pad: 'x'.repeat(10_000) })) });
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
      expect((await limited.ctx.rollout.health.counts('mf-research', V1)).loads).toBe(3);
    } finally {
      await limited.close();
    }
  });
});
