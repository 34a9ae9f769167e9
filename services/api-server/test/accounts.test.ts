import { ProfileSchema, RegistrationResponseSchema } from '@app/contracts';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registration, startTestServer, type TestServer } from './helpers';

/** The server's clock (ctx.now): lockouts and session expiry move when a test steps it, never by waiting. */
const clock = { now: Date.parse('2026-03-01T09:00:00.000Z') };
const LOCK_MS = 15 * 60_000;
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    { lockout: { maxAttempts: 3, windowMs: 60_000, durationMs: LOCK_MS, addressMaxAttempts: 30 } },
    () => clock.now,
  );
});
afterAll(() => s.close());

describe('register', () => {
  it('creates an inactive account by default and answers the contract shape', async () => {
    const r = await s.post('/api/register', registration());
    expect(r.status).toBe(201);
    expect(v.is(RegistrationResponseSchema, r.body)).toBe(true);
    expect(r.body.requires_activation).toBe(true);
  });

  it('trims and lower-cases the email', async () => {
    const payload = registration({ email: '  Mixed.Case@Example.COM ' });
    expect((await s.post('/api/register', payload)).status).toBe(201);
    expect((await s.ctx.accounts.resolveUser('mixed.case@example.com'))?.username).toBe(payload.username);
  });

  it('answers validation failures as 400 with the first message per field', async () => {
    const r = await s.post('/api/register', {
      ...registration(),
      username: 'a!',
      password: 'short',
      email: 'nope',
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      error: 'Username must be at least 3 characters',
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 8 characters',
      email: 'Please enter a valid email address',
    });
  });

  it.each([
    ['no lowercase', 'SECRET123', 'Password must contain at least one lowercase letter'],
    ['no uppercase', 'secret123', 'Password must contain at least one uppercase letter'],
    ['no digit', 'SecretPass', 'Password must contain at least one number'],
  ])('password rules: %s', async (_name, password, message) => {
    const r = await s.post('/api/register', registration({ password }));
    expect(r.status).toBe(400);
    expect(r.body.password).toBe(message);
  });

  it('rejects a taken username (any case) and a taken email with 409 and a field key', async () => {
    const first = registration();
    await s.post('/api/register', first);
    const sameName = await s.post('/api/register', registration({ username: first.username.toUpperCase() }));
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({
      error: 'Username is already taken',
      username: 'Username is already taken',
    });
    const sameEmail = await s.post('/api/register', registration({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({
      error: 'Email is already registered',
      email: 'Email is already registered',
    });
  });

  it('does not answer requires_activation when the server is configured without it', async () => {
    const open = await startTestServer({ requiresActivation: false });
    try {
      const reg = registration();
      const r = await open.post('/api/register', reg);
      expect(r.body.requires_activation).toBe(false);
      const login = await open.post('/api/login', { username: reg.email, password: reg.password });
      expect(login.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('login', () => {
  it('refuses an inactive account with 403 mentioning disabled, and accepts it once activated', async () => {
    const reg = registration();
    await s.post('/api/register', reg);
    const r = await s.post('/api/login', { username: reg.email, password: reg.password });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain('disabled');
    s.ctx.accounts.activate(reg.email);
    const ok = await s.post('/api/login', { username: reg.email, password: reg.password });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts the username in the username field too', async () => {
    const u = await s.user();
    const r = await s.post('/api/login', { username: u.username, password: u.password });
    expect(r.status).toBe(200);
  });

  it('stores only a hash of the token', async () => {
    const u = await s.user();
    const stored = await s.sql.column<string>('SELECT token_hash FROM sessions WHERE user_id = ?', [u.id]);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).not.toContain(u.token);
    expect(stored[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('requires both fields', async () => {
    const r = await s.post('/api/login', { username: '', password: '' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Email and password are required for login.');
  });

  it('answers a wrong password and an unknown email identically, through to the lockout', async () => {
    const u = await s.user();
    const known: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await s.post('/api/login', { username: u.email, password: 'Wrong123x' });
      const b = await s.post('/api/login', { username: `nobody-${u.id}@example.com`, password: 'Wrong123x' });
      known.push([a.status, a.body]);
      unknown.push([b.status, b.body]);
    }
    expect(known).toEqual(unknown);
    expect(known[0]).toEqual([401, { error: 'Invalid email or password' }]);
    expect(known[1]).toEqual([401, { error: 'Invalid email or password' }]);
    // maxAttempts is 3 here: the third failure locks.
    expect(known[2]).toEqual([
      423,
      { error: 'Account temporarily locked due to too many failed login attempts. Please try again later.' },
    ]);
    expect(known[3]).toEqual(known[2]);
    // Locked: even the right password is refused until the lock expires.
    expect((await s.post('/api/login', { username: u.email, password: u.password })).status).toBe(423);
    clock.now += LOCK_MS - 1;
    expect((await s.post('/api/login', { username: u.email, password: u.password })).status).toBe(423);
    clock.now += 1;
    expect((await s.post('/api/login', { username: u.email, password: u.password })).status).toBe(200);
  });

  it('counts failures within the window only: a failure after it starts the count again', async () => {
    const u = await s.user();
    const wrong = () => s.post('/api/login', { username: u.email, password: 'Wrong123x' });
    expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(401);
    // windowMs is 60 s here: the third failure comes after it, so it is the first of a new window.
    clock.now += 60_001;
    expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(423);
  });
});

describe('sessions', () => {
  it('rejects a missing, malformed or unknown token with 401', async () => {
    expect((await s.get('/api/profile')).status).toBe(401);
    expect((await s.get('/api/profile', 'not-a-token')).status).toBe(401);
    const r = await s.req('GET', '/api/profile', { headers: { authorization: 'Basic abc' } });
    expect(r.status).toBe(401);
    expect(r.body.error).toBeTruthy();
  });

  it('logout revokes the token', async () => {
    const u = await s.user();
    expect((await s.post('/api/logout', undefined, u.token)).status).toBe(200);
    expect((await s.get('/api/profile', u.token)).status).toBe(401);
  });

  it('a token expires at the end of its lifetime, however recently it was used', async () => {
    const t = { now: clock.now };
    // The session cache on: an entry cached just before expiry must not outlive the session.
    const short = await startTestServer({ sessionTtlMs: 60_000, sessionCacheMs: 5000 }, () => t.now);
    try {
      const u = await short.user();
      t.now += 59_999;
      expect((await short.get('/api/profile', u.token)).status).toBe(200);
      t.now += 1;
      expect((await short.get('/api/profile', u.token)).status).toBe(401);
      expect(Number(await short.sql.value('SELECT COUNT(*) FROM sessions WHERE user_id = ?', [u.id]))).toBe(
        0,
      );
    } finally {
      await short.close();
    }
  });

  it('account deletion revokes every session', async () => {
    const u = await s.user();
    const other = (await s.post('/api/login', { username: u.email, password: u.password })).body.token;
    expect((await s.del('/api/account/delete', u.token)).status).toBe(200);
    expect((await s.get('/api/profile', u.token)).status).toBe(401);
    expect((await s.get('/api/profile', other)).status).toBe(401);
    expect((await s.post('/api/login', { username: u.email, password: u.password })).status).toBe(401);
  });

  it('account deletion also answers POST with an empty body', async () => {
    const u = await s.user();
    const r = await s.req('POST', '/api/account/delete', { token: u.token });
    expect(r.status).toBe(200);
    expect((await s.get('/api/profile', u.token)).status).toBe(401);
  });

  it('account deletion keeps published posts as Anonymous and removes drafts', async () => {
    const u = await s.user();
    const pub = await s.post('/api/posts', { title: 'Kept', content: 'x', status: 'published' }, u.token);
    const draft = await s.post('/api/posts', { title: 'Gone', content: 'x', status: 'draft' }, u.token);
    await s.del('/api/account/delete', u.token);
    const kept = await s.get(`/api/posts/${pub.body.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body.author).toEqual({ id: null, name: null });
    const listed = (await s.get('/api/posts?limit=100')).body as { id: number; author: unknown }[];
    expect(listed.find((p) => p.id === pub.body.id)?.author).toEqual({ id: null, name: null });
    expect(await s.sql.value('SELECT COUNT(*) FROM posts WHERE id = ?', [draft.body.id])).toBe(0);
  });
});

describe('change password', () => {
  for (const method of ['PUT', 'POST']) {
    it(`${method}: checks the current password, revokes other sessions, keeps this one`, async () => {
      const u = await s.user();
      const other = (await s.post('/api/login', { username: u.email, password: u.password })).body.token;
      const wrong = await s.req(method, '/api/account/change-password', {
        token: u.token,
        body: { currentPassword: 'Nope12345', newPassword: 'NewSecret9' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('Current password is incorrect');
      const short = await s.req(method, '/api/account/change-password', {
        token: u.token,
        body: { currentPassword: u.password, newPassword: 'short' },
      });
      expect(short.status).toBe(400);
      const ok = await s.req(method, '/api/account/change-password', {
        token: u.token,
        body: { currentPassword: u.password, newPassword: 'NewSecret9' },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe('Password updated successfully');
      expect((await s.get('/api/profile', other)).status).toBe(401);
      expect((await s.get('/api/profile', u.token)).status).toBe(200);
      expect((await s.post('/api/login', { username: u.email, password: u.password })).status).toBe(401);
      expect((await s.post('/api/login', { username: u.email, password: 'NewSecret9' })).status).toBe(200);
      // The same change sent again (nginx resends a PUT whose instance died with it in flight) answers like
      // the first: the password already is the new one.
      const again = await s.req(method, '/api/account/change-password', {
        token: u.token,
        body: { currentPassword: u.password, newPassword: 'NewSecret9' },
      });
      expect(again.status).toBe(200);
      expect(again.body.message).toBe('Password updated successfully');
      expect((await s.post('/api/login', { username: u.email, password: 'NewSecret9' })).status).toBe(200);
    });
  }

  it('needs a session', async () => {
    const r = await s.put('/api/account/change-password', {
      currentPassword: 'a',
      newPassword: 'NewSecret9',
    });
    expect(r.status).toBe(401);
  });
});

describe('profile and preferences', () => {
  it('returns the profile in the contract shape', async () => {
    const u = await s.user(['paid-tier-1']);
    const r = await s.get('/api/profile', u.token);
    expect(r.status).toBe(200);
    expect(v.is(ProfileSchema, r.body)).toBe(true);
    expect(r.body).toMatchObject({
      username: u.username,
      email: u.email,
      roles: ['paid-tier-1'],
      is_active: true,
      name: { first: 'Jane', last: 'Doe' },
      address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
    });
    expect(r.body.last_login).toBeTruthy();
  });

  it('updates the profile; a new email, lower-cased, waits for its confirmation (issue 46)', async () => {
    const u = await s.user();
    const body = {
      name: { first: 'Max', last: 'Muster' },
      email: ` NEW-${u.id}@Example.com `,
      address: { street: 'Other Road 5', city: 'Hamburg', postal_code: '20095', country: 'DE' },
      current_password: u.password,
    };
    const r = await s.put('/api/profile', body, u.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      email: u.email,
      pending_email: `new-${u.id}@example.com`,
      name: { first: 'Max', last: 'Muster' },
    });
    // The same address in other letters is no change: no password needed.
    const same = { ...body, email: u.email.toUpperCase(), current_password: undefined };
    expect((await s.put('/api/profile', same, u.token)).status).toBe(200);
    expect((await s.get('/api/profile', u.token)).body.address.city).toBe('Hamburg');
  });

  it('refuses an email used by someone else with 409, and bad fields with 400', async () => {
    const a = await s.user();
    const b = await s.user();
    const base = { name: { first: 'Max' }, address: { street: 'Other Road 5' } };
    const taken = await s.put(
      '/api/profile',
      { ...base, email: a.email, current_password: b.password },
      b.token,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.email).toBe('Email is already registered');
    const bad = await s.put('/api/profile', { ...base, email: b.email, name: { first: 'M' } }, b.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('First name must be at least 2 characters');
    expect((await s.put('/api/profile', { ...base, email: b.email })).status).toBe(401);
  });

  it('has default preferences and stores the whole object', async () => {
    const u = await s.user();
    const d = await s.get('/api/preferences', u.token);
    expect(d.body).toEqual({ emailOptIn: false, notifications: [], theme: 'system' });
    const saved = await s.put('/api/preferences', { ...d.body, emailOptIn: true }, u.token);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ emailOptIn: true, notifications: [], theme: 'system' });
    expect((await s.get('/api/preferences', u.token)).body.emailOptIn).toBe(true);
    expect((await s.put('/api/preferences', { emailOptIn: 'yes', notifications: [] }, u.token)).status).toBe(
      400,
    );
    expect((await s.get('/api/preferences')).status).toBe(401);
  });
});

describe('privileges cannot be asked for (issue 11: must stay so)', () => {
  it('registration ignores roles and is_active in the payload', async () => {
    const payload = { ...registration(), roles: ['admin'], is_active: true };
    expect((await s.post('/api/register', payload)).status).toBe(201);
    const login = await s.post('/api/login', { username: payload.email, password: payload.password });
    expect(login.status).toBe(403); // still waiting for activation
    const id = (await s.ctx.accounts.resolveUser(payload.email))!.id;
    await s.ctx.accounts.activate(id);
    const token = (await s.post('/api/login', { username: payload.email, password: payload.password })).body
      .token;
    expect((await s.get('/api/profile', token)).body.roles).toEqual([]);
  });

  it('a profile update ignores roles and is_active', async () => {
    const u = await s.user();
    const before = (await s.get('/api/profile', u.token)).body;
    const r = await s.put(
      '/api/profile',
      { name: before.name, email: before.email, address: before.address, roles: ['admin'], is_active: false },
      u.token,
    );
    expect(r.status).toBe(200);
    const after = (await s.get('/api/profile', u.token)).body;
    expect(after.roles).toEqual([]);
    expect(after.is_active).toBe(true);
    expect((await s.get('/api/admin/users', u.token)).status).toBe(403);
  });
});
