import { API_PATHS, MESSAGES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

/**
 * Issue 46: a session ends once unused for SESSION_IDLE_MS (a stolen token does not outlive an idle day),
 * and a member sees where they are signed in and ends sessions, without any token or hash in the answer.
 */
const HOUR = 3600_000;
let s: TestServer;
let clock = Date.now();

beforeAll(async () => {
  s = await startTestServer({ sessionIdleMs: 12 * HOUR, sessionCacheMs: 0 }, () => clock);
});
afterAll(() => s.close());

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const login = async (user: { email: string; password: string }, ua: string) => {
  const res = await s.req('POST', API_PATHS.login, {
    body: { username: user.email, password: user.password },
    headers: { 'user-agent': ua },
  });
  expect(res.status).toBe(200);
  return res.body.token as string;
};

describe('idle expiry', () => {
  it('keeps a session in use alive past the idle time, and ends one left unused for it', async () => {
    const u = await s.user();
    const used = await login(u, firefox);
    const idle = await login(u, firefox);
    // Used every 5 hours for a day: still alive (each use moves its idle clock on).
    for (let i = 0; i < 5; i += 1) {
      clock += 5 * HOUR;
      expect((await s.get(API_PATHS.profile, used)).status).toBe(200);
    }
    // The other one, stolen and kept unused for more than 12 hours, is refused and stays refused.
    expect((await s.get(API_PATHS.profile, idle)).status).toBe(401);
    expect((await s.get(API_PATHS.profile, idle)).status).toBe(401);
    expect(await s.sql.value('SELECT COUNT(*) FROM sessions WHERE user_id = ?', [u.id])).toBe(2);
  });
});

describe("a member's sessions", () => {
  it('lists them with device and times, this one first, never a token or its hash', async () => {
    const u = await s.user();
    const other = await login(u, 'curl/8.5.0');
    clock += 2 * 60_000;
    const mine = await login(u, firefox);
    const res = await s.get(API_PATHS.sessions, mine);
    expect(res.status).toBe(200);
    const devices = res.body.map((x: { device: string; current: boolean }) => [x.device, x.current]);
    // s.user() logged in once too (no User-Agent the API knows: Node's fetch says "node").
    expect(devices[0]).toEqual(['Firefox on Linux', true]);
    expect(devices).toContainEqual(['curl', false]);
    const text = JSON.stringify(res.body);
    const hashes = await s.sql.column<string>('SELECT token_hash FROM sessions WHERE user_id = ?', [u.id]);
    for (const secret of [mine, other, u.token, ...hashes]) expect(text).not.toContain(secret);
    expect(res.body[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      device: 'Firefox on Linux',
      created_at: new Date(clock).toISOString(),
      last_seen_at: new Date(clock).toISOString(),
      current: true,
    });
  });

  it('ends one by its id (that token stops working), and every other one at once', async () => {
    const u = await s.user();
    const other = await login(u, 'curl/8.5.0');
    const mine = await login(u, firefox);
    const listed = (await s.get(API_PATHS.sessions, mine)).body as Array<{ id: string; device: string }>;
    const curl = listed.find((x) => x.device === 'curl')!;
    const ended = await s.del(API_PATHS.session(curl.id), mine);
    expect(ended).toMatchObject({ status: 200, body: { message: MESSAGES.sessions.ended } });
    expect((await s.get(API_PATHS.profile, other)).status).toBe(401);
    expect((await s.del(API_PATHS.session(curl.id), mine)).status).toBe(404);

    expect((await s.get(API_PATHS.profile, u.token)).status).toBe(200);
    expect((await s.del(API_PATHS.sessions, mine)).body).toEqual({ message: MESSAGES.sessions.endedOthers });
    expect((await s.get(API_PATHS.profile, u.token)).status).toBe(401);
    expect((await s.get(API_PATHS.profile, mine)).status).toBe(200);
    expect((await s.get(API_PATHS.sessions, mine)).body).toHaveLength(1);
  });

  it("cannot end another member's session, and a guest cannot list any", async () => {
    const a = await s.user();
    const b = await s.user();
    const bs = (await s.get(API_PATHS.sessions, b.token)).body as Array<{ id: string }>;
    expect((await s.del(API_PATHS.session(bs[0]!.id), a.token)).status).toBe(404);
    expect((await s.get(API_PATHS.profile, b.token)).status).toBe(200);
    expect((await s.get(API_PATHS.sessions)).status).toBe(401);
  });
});
