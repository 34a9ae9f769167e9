import { API_PATHS, MESSAGES } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli';
import { isSensitiveAdminAction } from '../src/routes/admin-gate';
import { type RequestOptions, startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Issue 46: administrators must have a second factor (without one, every admin API answers 403 and says
 * where to set it up), sensitive admin actions need a code verified in the session within the step-up
 * window (15 minutes), administrators cannot turn the factor off, and the CLI resets a lost one.
 */
const T = MESSAGES.twoFactor;
const STEP_UP_MS = 15 * 60_000;
const clock = { now: Date.parse('2026-05-01T09:00:00.000Z') };
let s: TestServer;
let member: TestUser;
beforeAll(async () => {
  s = await startTestServer({}, () => clock.now);
  member = await s.user([], 'plain');
  // The CLI opens the database the way the server does: DATABASE_URL, else DB_PATH.
  process.env.DB_PATH = s.ctx.config.dbPath;
  if (s.ctx.config.databaseUrl) process.env.DATABASE_URL = s.ctx.config.databaseUrl;
});
afterAll(async () => {
  delete process.env.DB_PATH;
  delete process.env.DATABASE_URL;
  await s.close();
});

/** Every admin route, read or write, with a body where one is needed: what an administrator can reach. */
const adminRequests = (): [string, string, RequestOptions['body']?][] => [
  ['GET', ADMIN_PATHS.users],
  ['GET', ADMIN_PATHS.members],
  ['GET', ADMIN_PATHS.audit],
  ['GET', ADMIN_PATHS.outbox],
  ['GET', ADMIN_PATHS.outboxSummary],
  ['GET', ADMIN_PATHS.leads],
  ['GET', ADMIN_PATHS.leadsCsv],
  ['GET', ADMIN_PATHS.site],
  ['GET', ADMIN_PATHS.rollouts],
  ['POST', ADMIN_PATHS.activate(member.id)],
  ['POST', ADMIN_PATHS.roles(member.id), { role: 'paid-tier-1' }],
  ['DELETE', ADMIN_PATHS.role(member.id, 'paid-tier-1')],
  ['POST', ADMIN_PATHS.membersActivate, { ids: [member.id] }],
  ['POST', ADMIN_PATHS.membersReject, { ids: [999_999] }],
  ['POST', ADMIN_PATHS.memberRoles(member.id), { role: 'paid-tier-1' }],
  ['DELETE', ADMIN_PATHS.memberRole(member.id, 'paid-tier-1')],
  ['DELETE', ADMIN_PATHS.rolloutPreview('nope')],
  ['PUT', ADMIN_PATHS.siteImpressum, {}],
  ['PUT', ADMIN_PATHS.siteContact, {}],
];

const sensitive = () => adminRequests().filter(([method, path]) => isSensitiveAdminAction(method, path));

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    return { code: await runCli(args), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('an administrator without a second factor', () => {
  it('logs in, but every admin API answers 403 saying to set it up in the profile', async () => {
    const admin = await s.user(['admin'], 'bare', { twoFactor: false });
    expect((await s.get(API_PATHS.profile, admin.token)).status).toBe(200);
    expect((await s.get(API_PATHS.twoFactor, admin.token)).body).toEqual({
      enabled: false,
      required: true,
      pending: false,
      recoveryCodesLeft: 0,
    });
    for (const [method, path, body] of adminRequests()) {
      const r = await s.req(method, path, { token: admin.token, body });
      expect([method, path, r.status, r.body]).toEqual([
        method,
        path,
        403,
        { error: T.setupRequired, twoFactorSetupRequired: true },
      ]);
    }
    // A guest and a member still get the routes' own answers.
    expect((await s.get(ADMIN_PATHS.members)).status).toBe(401);
    expect((await s.get(ADMIN_PATHS.members, member.token)).body.error).toBe('Administrator role required');
  });

  it('sets it up from the profile, after which the admin screens open', async () => {
    const admin = await s.user(['admin'], 'late', { twoFactor: false });
    await s.enrolTwoFactor(admin);
    expect((await s.get(ADMIN_PATHS.members, admin.token)).status).toBe(200);
  });
});

describe('step-up before sensitive admin actions', () => {
  it('needs a code verified in this session; reads need none', async () => {
    const admin = await s.user(['admin'], 'stepper', { twoFactor: false });
    await s.enrolTwoFactor(admin);
    clock.now += 60_000;
    // A fresh login with the code opens a session that has not stepped up yet.
    const session = (
      await s.post(API_PATHS.login, { username: admin.email, password: admin.password, code: s.code(admin) })
    ).body.token as string;
    expect((await s.get(ADMIN_PATHS.members, session)).status).toBe(200);
    expect(sensitive().length).toBe(11);
    for (const [method, path, body] of sensitive()) {
      const r = await s.req(method, path, { token: session, body });
      expect([method, path, r.status, r.body]).toEqual([
        method,
        path,
        403,
        { error: T.stepUpRequired, stepUpRequired: true },
      ]);
    }
    const wrong = await s.post(API_PATHS.twoFactorVerify, { code: '000000' }, session);
    expect([wrong.status, wrong.body.error]).toEqual([400, T.codeWrong]);
    clock.now += 30_000;
    const ok = await s.post(API_PATHS.twoFactorVerify, { code: s.code(admin) }, session);
    expect(ok.body).toEqual({ message: T.stepUpDone, verifiedUntil: clock.now + STEP_UP_MS });
    const grant = await s.post(ADMIN_PATHS.memberRoles(member.id), { role: 'paid-tier-1' }, session);
    expect(grant.status).toBe(200);
    // Only this session stepped up: another session of the same administrator still asks.
    const other = await s.del(ADMIN_PATHS.memberRole(member.id, 'paid-tier-1'), admin.token);
    expect(other.body.stepUpRequired).toBe(true);
  });

  it('expires 15 minutes after the code', async () => {
    const admin = await s.user(['admin'], 'expiring');
    const export_ = () => s.get(`${ADMIN_PATHS.leadsCsv}`, admin.token);
    clock.now += STEP_UP_MS - 1;
    expect((await export_()).status).toBe(200);
    clock.now += 1;
    const r = await export_();
    expect([r.status, r.body.stepUpRequired]).toEqual([403, true]);
    await s.stepUp(admin);
    expect((await export_()).status).toBe(200);
  });
});

describe('keeping and resetting the factor', () => {
  it('refuses to let an administrator turn it off', async () => {
    const admin = await s.user(['admin'], 'keeper');
    clock.now += 60_000;
    const r = await s.post(
      API_PATHS.twoFactorDisable,
      { password: admin.password, code: s.code(admin) },
      admin.token,
    );
    expect([r.status, r.body.error]).toEqual([403, T.adminCannotDisable]);
    expect((await s.get(API_PATHS.twoFactor, admin.token)).body.enabled).toBe(true);
  });

  it('pnpm admin reset-2fa removes a lost factor and ends the account’s sessions', async () => {
    const admin = await s.user(['admin'], 'lost');
    const r = await cli('reset-2fa', admin.email);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Removed the second factor of #${admin.id}`);
    expect((await s.get(API_PATHS.profile, admin.token)).status).toBe(401);
    // The password alone logs in again; administration waits for a new factor.
    const login = await s.post(API_PATHS.login, { username: admin.email, password: admin.password });
    expect(login.status).toBe(200);
    expect((await s.get(ADMIN_PATHS.members, login.body.token)).body.twoFactorSetupRequired).toBe(true);
    expect(
      Number(await s.sql.value('SELECT COUNT(*) FROM user_recovery_codes WHERE user_id = ?', [admin.id])),
    ).toBe(0);

    expect((await cli('reset-2fa')).err).toBe('Error: reset-2fa needs <email|username|id>');
    expect((await cli('reset-2fa', 'nobody@example.com')).err).toBe('Error: User not found');
  });
});
