import { API_PATHS, RATE_LIMIT_MESSAGES, rateLimitMessage } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { limitsWith, registration, startTestServer, type TestServer, tempDatabase } from './helpers';
import { assessment, freshAddress, from, testClock } from './rate-limit-fixtures';

const HOUR = 3_600_000;
const register = (s: TestServer, headers: Record<string, string> = {}) =>
  s.req('POST', API_PATHS.register, { body: registration(), headers });

async function withServers<T>(
  configs: Parameters<typeof startTestServer>[0][],
  run: (...servers: TestServer[]) => Promise<T>,
  now?: () => number,
) {
  const servers: TestServer[] = [];
  try {
    for (const c of configs) servers.push(await startTestServer(c, now));
    return await run(...servers);
  } finally {
    for (const s of servers) await s.close();
  }
}

describe('client address', () => {
  const rateLimits = limitsWith({ register: { limit: 2, windowMs: HOUR } });

  it('a forged X-Forwarded-For from a peer that is not a trusted proxy changes nothing', async () => {
    await withServers([{ rateLimits, trustedProxies: [] }], async (s) => {
      expect((await register(s, from('198.51.100.1'))).status).toBe(201);
      expect((await register(s, from('198.51.100.2'))).status).toBe(201);
      const r = await register(s, from('198.51.100.3'));
      expect(r.status).toBe(429);
      // Counted against the socket's address, whatever the header said.
      expect(await s.ctx.rateLimits.refusals(0)).toMatchObject([{ limit: 'register', subject: '127.0.0.1' }]);
      const rows = await s.sql.column('SELECT DISTINCT registered_from FROM users');
      expect(rows).toEqual(['127.0.0.1']);
    });
  });

  it('from the trusted proxy, X-Forwarded-For names the client (the nearest untrusted hop)', async () => {
    await withServers([{ rateLimits, trustedProxies: ['127.0.0.0/8', '10.0.0.0/8'] }], async (s) => {
      const client = freshAddress();
      // The client forged the first entry; the proxies appended what they saw, rightmost last.
      const chain = { 'x-forwarded-for': `6.6.6.6, ${client}, 10.1.2.3` };
      expect((await register(s, chain)).status).toBe(201);
      expect((await register(s, chain)).status).toBe(201);
      expect((await register(s, chain)).status).toBe(429);
      expect((await register(s, { 'x-forwarded-for': `7.7.7.7, ${client}` })).status).toBe(429);
      expect((await register(s, from(freshAddress()))).status).toBe(201);
      const rows = await s.sql.column('SELECT registered_from FROM users ORDER BY id');
      expect(rows.slice(0, 2)).toEqual([client, client]);
    });
  });
});

describe('two API instances on one database', () => {
  it('share one counter per client', async () => {
    const config = {
      ...tempDatabase(),
      trustedProxies: ['127.0.0.1'],
      rateLimits: limitsWith({ register: { limit: 4, windowMs: HOUR } }),
    };
    await withServers([config, config], async (a, b) => {
      const client = from(freshAddress());
      const answers = await Promise.all([register(a, client), register(b, client), register(a, client)]);
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
      expect((await register(b, client)).status).toBe(201);
      for (const s of [a, b]) {
        const r = await register(s, client);
        expect(r.status).toBe(429);
        expect(r.body.error).toBe(rateLimitMessage(RATE_LIMIT_MESSAGES.register, 3600));
      }
      expect(await a.sql.value('SELECT COUNT(*) FROM users')).toBe(4);
    });
  });
});

describe('repeat market assessment (per email)', () => {
  const count = (s: TestServer) => s.sql.value('SELECT COUNT(*) FROM market_assessments');

  it('within the window answers the same 201 and stores one; after it, a new one is stored', async () => {
    const clock = testClock();
    await withServers(
      [{ rateLimits: limitsWith({}, 24 * HOUR) }],
      async (s) => {
        const send = (email: string) => s.post(API_PATHS.marketAssessment, assessment(email));
        const [first, double] = await Promise.all([send('lead@example.com'), send('lead@example.com')]);
        expect(first.status).toBe(201);
        expect(double.status).toBe(201);
        expect(double.body).toEqual(first.body);
        clock.advance(HOUR);
        const reload = await send('LEAD@example.com');
        expect(reload.status).toBe(201);
        expect(reload.body).toEqual(first.body);
        const other = await send('other@example.com');
        expect(other.body.id).not.toBe(first.body.id);
        expect(await count(s)).toBe(2);
        clock.advance(24 * HOUR);
        const later = await send('lead@example.com');
        expect(later.status).toBe(201);
        expect(later.body.id).not.toBe(first.body.id);
        expect(await count(s)).toBe(3);
      },
      clock.now,
    );
  });

  it('two instances on one database store one assessment for one email', async () => {
    const config = { ...tempDatabase(), rateLimits: limitsWith({}, 24 * HOUR) };
    await withServers([config, config], async (a, b) => {
      const answers = await Promise.all(
        [a, b, a, b].map((s) => s.post(API_PATHS.marketAssessment, assessment('twice@example.com'))),
      );
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      expect(await count(a)).toBe(1);
    });
  });
});
