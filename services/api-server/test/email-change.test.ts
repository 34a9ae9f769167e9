import { API_PATHS, MESSAGES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from './helpers';
import { mailConfig, TestSmtp } from './smtp-fixture';

/**
 * Issue 46: the email is a way into the account (reset links go there), so changing it is guarded like the
 * password: a stolen session token alone changes nothing; with the password the change waits for the new
 * address to confirm, and the old address can undo it, ending every session.
 */
const E = MESSAGES.emailChange;
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

const profileOf = (u: TestUser, over: Record<string, unknown>) => ({
  name: { first: 'Jane', last: 'Doe' },
  email: u.email,
  address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
  ...over,
});
const linkToken = (text: string, page: string) => {
  const m = new RegExp(`http://site\\.test/${page}#token=([A-Za-z0-9_%-]+)`).exec(text);
  if (!m?.[1]) throw new Error(`no ${page} link in: ${text}`);
  return decodeURIComponent(m[1]);
};
const fresh = () => `new.${Math.random().toString(36).slice(2, 9)}@example.com`;

describe('changing the email', () => {
  it('with a session token alone is refused: nothing changes and no mail is sent', async () => {
    const u = await s.user();
    const target = fresh();
    for (const current_password of [undefined, '', 'Wrong-pass-1']) {
      const res = await s.put(API_PATHS.profile, profileOf(u, { email: target, current_password }), u.token);
      expect(res.status).toBe(400);
      expect(res.body.current_password).toBe(
        current_password === 'Wrong-pass-1' ? E.passwordWrong : E.passwordRequired,
      );
    }
    expect((await s.get(API_PATHS.profile, u.token)).body).toMatchObject({
      email: u.email,
      pending_email: null,
    });
    // The rest of the form was not half-saved either, and nothing was mailed.
    const sent = await s.sql.value<number>(
      "SELECT COUNT(*) FROM outbox WHERE kind LIKE 'email-change%' AND (to_address = ? OR to_address = ?)",
      [target, u.email],
    );
    expect(sent).toBe(0);
  });

  it('with the password waits for the new address; the old one is told; the link changes it once', async () => {
    const u = await s.user();
    const target = fresh();
    const res = await s.put(
      API_PATHS.profile,
      profileOf(u, {
        email: target.toUpperCase(),
        current_password: u.password,
        name: { first: 'Janet', last: 'Doe' },
      }),
      u.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: u.email, pending_email: target, name: { first: 'Janet' } });

    const confirmMail = await smtp.waitFor(target, /Confirm your new/);
    const notice = await smtp.waitFor(u.email, /is changing/);
    expect(notice.text).toContain(target);
    // The outbox keeps no usable link: only the tokens' hashes are in the database.
    const stored = JSON.stringify(await s.sql.all('SELECT * FROM email_changes'));
    expect(stored).not.toContain(linkToken(confirmMail.text, 'confirm-email'));

    // Until followed, a reset still goes to the old address, and the old address still logs in.
    const confirmed = await s.post(API_PATHS.confirmEmail, {
      token: linkToken(confirmMail.text, 'confirm-email'),
    });
    expect(confirmed).toMatchObject({ status: 200, body: { message: E.confirmed(target), email: target } });
    expect((await s.get(API_PATHS.profile, u.token)).body).toMatchObject({
      email: target,
      pending_email: null,
    });
    const again = await s.post(API_PATHS.confirmEmail, {
      token: linkToken(confirmMail.text, 'confirm-email'),
    });
    expect(again).toMatchObject({ status: 400, body: { error: E.invalidToken } });
    expect((await s.post(API_PATHS.login, { username: target, password: u.password })).status).toBe(200);
  });

  it('is undone from the old address: the address comes back and every session ends', async () => {
    const u = await s.user();
    const attacker = fresh();
    expect(
      (
        await s.put(
          API_PATHS.profile,
          profileOf(u, { email: attacker, current_password: u.password }),
          u.token,
        )
      ).status,
    ).toBe(200);
    const confirmMail = await smtp.waitFor(attacker, /Confirm your new/);
    await s.post(API_PATHS.confirmEmail, { token: linkToken(confirmMail.text, 'confirm-email') });
    const notice = await smtp.waitFor(u.email, /is changing/);

    const undone = await s.post(API_PATHS.undoEmailChange, {
      token: linkToken(notice.text, 'undo-email-change'),
    });
    expect(undone).toMatchObject({ status: 200, body: { message: E.undone(u.email), email: u.email } });
    expect((await s.get(API_PATHS.profile, u.token)).status).toBe(401);
    const back = await s.post(API_PATHS.login, { username: u.email, password: u.password });
    expect(back.status).toBe(200);
    expect((await s.get(API_PATHS.profile, back.body.token)).body.email).toBe(u.email);
    expect(
      (await s.post(API_PATHS.undoEmailChange, { token: linkToken(notice.text, 'undo-email-change') }))
        .status,
    ).toBe(400);
  });

  it('refuses an expired link, a made-up one, and an address another account took meanwhile', async () => {
    const u = await s.user();
    const target = fresh();
    await s.put(API_PATHS.profile, profileOf(u, { email: target, current_password: u.password }), u.token);
    const token = linkToken((await smtp.waitFor(target, /Confirm your new/)).text, 'confirm-email');
    expect((await s.post(API_PATHS.confirmEmail, { token: 'made-up' })).status).toBe(400);
    expect((await s.post(API_PATHS.confirmEmail, {})).status).toBe(400);

    const other = await s.user();
    const taken = fresh();
    await s.put(
      API_PATHS.profile,
      profileOf(other, { email: taken, current_password: other.password }),
      other.token,
    );
    const takenToken = linkToken((await smtp.waitFor(taken, /Confirm your new/)).text, 'confirm-email');
    const third = await s.user();
    await s.sql.run('UPDATE users SET email = ? WHERE id = ?', [taken, third.id]);
    const clash = await s.post(API_PATHS.confirmEmail, { token: takenToken });
    expect(clash).toMatchObject({ status: 409, body: { error: E.taken } });
    expect((await s.get(API_PATHS.profile, other.token)).body.email).toBe(other.email);

    clock += 25 * 3600_000;
    expect((await s.post(API_PATHS.confirmEmail, { token })).body.error).toBe(E.invalidToken);
  });
});
