import { API_PATHS, MESSAGES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from './helpers';
import { freshAddress, from } from './rate-limit-fixtures';

/**
 * Issue 46, tried as an attacker: failed logins count per account (username and email are one) and per
 * client address, and lock only browsers that never logged in to the account, so a stranger failing on
 * purpose cannot lock the owner out. Addresses come from X-Forwarded-For (the test's own proxy is trusted).
 */
const LOCK_MS = 15 * 60_000;
const clock = { now: Date.parse('2026-05-01T09:00:00.000Z') };
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    {
      trustedProxies: ['127.0.0.1', '::1'],
      lockout: { maxAttempts: 5, windowMs: LOCK_MS, durationMs: LOCK_MS, addressMaxAttempts: 30 },
    },
    () => clock.now,
  );
});
afterAll(() => s.close());

const LOCKED = { error: MESSAGES.login.locked };
const INVALID = { error: 'Invalid email or password' };

async function login(username: string, password: string, address: string, device?: string) {
  const r = await s.req('POST', API_PATHS.login, {
    body: { username, password, device },
    headers: from(address),
  });
  return { status: r.status, body: r.body };
}

/** A member who has logged in from their own browser and address: the device token that browser keeps. */
async function owner(): Promise<TestUser & { device: string; home: string }> {
  const u = await s.user();
  const home = freshAddress();
  const first = await login(u.email, u.password, home);
  expect(first.status).toBe(200);
  expect(first.body.device).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { ...u, device: first.body.device, home };
}

describe('a stranger failing on purpose', () => {
  it('20 wrong passwords from one address lock the stranger out, not the owner, who logs in from another address', async () => {
    const u = await owner();
    const attacker = freshAddress();
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await login(u.email, `Wrong${i}pass`, attacker));
    expect(answers.slice(0, 4)).toEqual(Array(4).fill({ status: 401, body: INVALID }));
    expect(answers.slice(4)).toEqual(Array(16).fill({ status: 423, body: LOCKED }));
    // Even the right password from the stranger's side is refused while the lock lasts.
    expect((await login(u.email, u.password, attacker)).status).toBe(423);
    // The owner's browser, from an address never seen before (a train, a hotel): in.
    const travelling = await login(u.email, u.password, freshAddress(), u.device);
    expect(travelling.status).toBe(200);
    expect(travelling.body.device).toBe(u.device);
    // A browser that never logged in to this account is held back, from any address, until the lock ends.
    expect(await login(u.email, u.password, freshAddress())).toEqual({ status: 423, body: LOCKED });
    clock.now += LOCK_MS;
    expect((await login(u.email, u.password, freshAddress())).status).toBe(200);
  });

  it('counts the username and the email as one account', async () => {
    const u = await owner();
    const attacker = freshAddress();
    for (let i = 0; i < 2; i++) expect((await login(u.username, 'Wrong123x', attacker)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await login(u.email, 'Wrong123x', attacker)).status).toBe(401);
    // The fifth failure, from a second address: the account is locked, by either name.
    expect((await login(u.username, 'Wrong123x', freshAddress())).status).toBe(423);
    expect((await login(u.email, u.password, freshAddress())).status).toBe(423);
    expect((await login(u.username, u.password, freshAddress())).status).toBe(423);
    expect((await login(u.username, u.password, freshAddress(), u.device)).status).toBe(200);
    clock.now += LOCK_MS;
  });

  it('walks an unknown identifier through the same answers as a real account', async () => {
    const u = await owner();
    const known = [];
    const unknown = [];
    for (let i = 0; i < 7; i++) {
      known.push(await login(u.email, 'Wrong123x', freshAddress()));
      unknown.push(await login(`nobody-${u.id}@example.com`, 'Wrong123x', freshAddress()));
    }
    expect(unknown).toEqual(known);
    expect(known.map((a) => a.status)).toEqual([401, 401, 401, 401, 423, 423, 423]);
    clock.now += LOCK_MS;
  });

  it('locks one address that tries one password on many accounts, but not the owners there', async () => {
    const owners = [];
    for (let i = 0; i < 3; i++) owners.push(await owner());
    const sprayer = freshAddress();
    const answers = [];
    // 30 accounts, each tried once: no account reaches its limit, the address does.
    for (let i = 0; i < 30; i++)
      answers.push((await login(`victim${i}-${sprayer}@example.com`, 'Summer2026!', sprayer)).status);
    expect(answers.slice(0, 29).every((status) => status === 401)).toBe(true);
    expect(answers[29]).toBe(423);
    // A browser new to the account is held back at that address, whatever the account...
    expect((await login(owners[0]!.email, owners[0]!.password, sprayer)).status).toBe(423);
    // ...but the account itself is not locked elsewhere, and its own browser still gets in there (one office).
    expect((await login(owners[1]!.email, owners[1]!.password, freshAddress())).status).toBe(200);
    expect((await login(owners[2]!.email, owners[2]!.password, sprayer, owners[2]!.device)).status).toBe(200);
    clock.now += LOCK_MS;
  });

  it('locks a known browser only by its own failures, and forgets them at its next login', async () => {
    const u = await owner();
    for (let i = 0; i < 4; i++)
      expect((await login(u.email, 'Wrong123x', u.home, u.device)).status).toBe(401);
    expect((await login(u.email, u.password, u.home, u.device)).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await login(u.email, 'Wrong123x', u.home, u.device)).status).toBe(401);
    expect((await login(u.email, 'Wrong123x', u.home, u.device)).status).toBe(423);
    expect((await login(u.email, u.password, u.home, u.device)).status).toBe(423);
    clock.now += LOCK_MS;
    expect((await login(u.email, u.password, u.home, u.device)).status).toBe(200);
  });

  it('hands a device token to a browser without one, and keeps a token the browser brings', async () => {
    const u = await s.user();
    const a = await login(u.email, u.password, freshAddress());
    const b = await login(u.email, u.password, freshAddress());
    expect(a.body.device).not.toBe(b.body.device);
    // A token of another shape is not trusted: a new one is handed out.
    const odd = await login(u.email, u.password, freshAddress(), 'short');
    expect(odd.status).toBe(200);
    expect(odd.body.device).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The same browser for a second account: the same token, learned by that account too.
    const other = await s.user();
    const shared = await login(other.email, other.password, freshAddress(), a.body.device);
    expect(shared.body.device).toBe(a.body.device);
    // Only hashes are stored.
    const stored = await s.sql.column<string>('SELECT device_hash FROM login_devices WHERE user_id = ?', [
      u.id,
    ]);
    expect(stored).not.toContain(a.body.device);
  });
});
