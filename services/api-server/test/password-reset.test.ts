import { API_PATHS, MESSAGES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsWith, startTestServer, type TestServer } from './helpers';
import { mailConfig, resetToken, TestSmtp } from './smtp-fixture';

/** Issue 34: Forgot password, through a real SMTP server, on a clock the test moves. */
let smtp: TestSmtp;
let s: TestServer;
let clock = Date.now();

beforeAll(async () => {
  smtp = await new TestSmtp().listen();
  s = await startTestServer({ mail: mailConfig(smtp.url), publicSiteUrl: 'http://site.test' }, () => clock);
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

const P = MESSAGES.passwordReset;
const forgot = (email: unknown) => s.post(API_PATHS.forgotPassword, { email });
const reset = (token: unknown, password: unknown) => s.post(API_PATHS.resetPassword, { token, password });

const resetMails = (email: string) => smtp.to(email).filter((m) => /Reset your/.test(m.subject));

async function requestLink(email: string): Promise<string> {
  const before = resetMails(email).length;
  expect((await forgot(email)).status).toBe(202);
  await smtp.until(() => resetMails(email).length > before);
  return resetToken(resetMails(email).at(-1)!);
}

describe('forgot password', () => {
  it('answers the same for an address with and without an account, and mails only the account', async () => {
    const u = await s.user();
    const known = await forgot(u.email.toUpperCase());
    const unknown = await forgot('no.such.account@example.com');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual({ message: P.sent });
    expect(unknown.body).toEqual(known.body);
    const mail = await smtp.waitFor(u.email, /Reset your/);
    expect(mail.text).toMatch(/http:\/\/site\.test\/reset-password#token=[A-Za-z0-9_-]{43}\n/);
    expect(mail.text).toContain('expires in 30 minutes');
    expect(smtp.to('no.such.account@example.com')).toHaveLength(0);
    // Only the token's hash is stored.
    const stored = await s.sql.column<string>('SELECT token_hash FROM password_resets');
    expect(stored).not.toContain(resetToken(mail));
  });

  it('takes about as long for an unknown address as for a known one', async () => {
    const u = await s.user();
    const time = async (email: string) => {
      const t = performance.now();
      await forgot(email);
      return performance.now() - t;
    };
    const known = await time(u.email);
    const unknown = await time('nobody.here@example.com');
    expect(unknown).toBeGreaterThanOrEqual(240);
    expect(Math.abs(known - unknown)).toBeLessThan(100);
  });

  it('refuses a malformed address with 400 and an error', async () => {
    const r = await forgot('not-an-email');
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(MESSAGES.register.emailInvalid);
    expect((await s.post(API_PATHS.forgotPassword, 'nope')).status).toBe(400);
  });
});

describe('reset password', () => {
  it('sets the password once, ends every session, and the link then fails', async () => {
    const u = await s.user();
    const other = (await s.post('/api/login', { username: u.email, password: u.password })).body.token;
    const token = await requestLink(u.email);

    const weak = await reset(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.password).toBe(MESSAGES.register.passwordMin);

    const ok = await reset(token, 'BrandNew123');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: P.done });
    // Every session of the account has ended, the ones on other devices included.
    expect((await s.get('/api/profile', u.token)).status).toBe(401);
    expect((await s.get('/api/profile', other)).status).toBe(401);
    expect((await s.post('/api/login', { username: u.email, password: u.password })).status).toBe(401);
    expect((await s.post('/api/login', { username: u.email, password: 'BrandNew123' })).status).toBe(200);

    const again = await reset(token, 'AnotherOne123');
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(P.invalidToken);
  });

  it('lets only one of two concurrent resets with one token win', async () => {
    const u = await s.user();
    const token = await requestLink(u.email);
    const answers = await Promise.all([reset(token, 'FirstOne123'), reset(token, 'SecondOne123')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it('voids the older link when a new one is asked for', async () => {
    const u = await s.user();
    const first = await requestLink(u.email);
    const second = await requestLink(u.email);
    expect((await reset(first, 'Changed123x')).status).toBe(400);
    expect((await reset(second, 'Changed123x')).status).toBe(200);
  });

  it('expires after 30 minutes', async () => {
    const u = await s.user();
    const token = await requestLink(u.email);
    clock += 30 * 60_000 + 1;
    try {
      const r = await reset(token, 'TooLate123x');
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(P.invalidToken);
    } finally {
      clock = Date.now();
    }
    const fresh = await requestLink(u.email);
    clock += 29 * 60_000;
    try {
      expect((await reset(fresh, 'InTime123x')).status).toBe(200);
    } finally {
      clock = Date.now();
    }
  });

  it('refuses unknown, empty and oversized tokens with 400', async () => {
    expect((await reset('x'.repeat(43), 'Valid123x')).body.error).toBe(P.invalidToken);
    expect((await reset('', 'Valid123x')).body.error).toBe(P.missingToken);
    expect((await reset('x'.repeat(500), 'Valid123x')).status).toBe(400);
    expect((await reset(42, 'Valid123x')).status).toBe(400);
  });
});

describe('rate limit', () => {
  it('limits forgot and reset per address like login', async () => {
    const limited = await startTestServer({
      mail: mailConfig(null),
      rateLimits: limitsWith({ reset: { limit: 2, windowMs: 60_000 } }),
    });
    try {
      const send = () => limited.post(API_PATHS.forgotPassword, { email: 'a@example.com' });
      expect((await send()).status).toBe(202);
      expect(
        (await limited.post(API_PATHS.resetPassword, { token: 'x', password: 'Valid123x' })).status,
      ).toBe(400);
      const over = await send();
      expect(over.status).toBe(429);
      expect(over.body.error).toMatch(
        /^Too many password reset requests from your network\. Please try again in/,
      );
    } finally {
      await limited.close();
    }
  });
});
