import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_PATHS, MESSAGES } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { OUTBOX_HIDDEN_SECRET } from '@app/contracts/outbox';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseBackups } from '../src/db/backup';
import { SECRET_SLOT } from '../src/mail/templates';
import { ACCOUNT_SECRET_FILE, SecretBox } from '../src/secret-box';
import { ON_POSTGRES, startTestServer, surveyAnswers, type TestServer, type TestUser } from './helpers';
import { mailConfig, resetToken, TestSmtp, waitUntil } from './smtp-fixture';

/**
 * Issue 46, as an attacker would try it: an administrator reading the outbox, a copy of the database, a log
 * line; and one script flooding a member with reset mails or an address with assessment mail. A reset
 * link's token is kept sealed beside its mail (decision 0039) and only the sender opens it.
 */

const forgot = (s: TestServer, email: string) => s.post(API_PATHS.forgotPassword, { email });
const reset = (s: TestServer, token: string, password: string) =>
  s.post(API_PATHS.resetPassword, { token, password });

interface StoredMail {
  id: number;
  text_body: string;
  html_body: string;
  sealed_secret: string | null;
  status: string;
}
const storedResets = (s: TestServer, email: string) =>
  s.sql.all<StoredMail>(
    "SELECT id, text_body, html_body, sealed_secret, status FROM outbox WHERE to_address = ? AND kind = 'password-reset' ORDER BY id",
    [email],
  );

/** Every text the database holds about resets and mail, joined: what a reader of the database could see. */
async function everythingStored(s: TestServer): Promise<string> {
  const outbox = await s.sql.all<Record<string, unknown>>('SELECT * FROM outbox');
  const attempts = await s.sql.all<Record<string, unknown>>('SELECT * FROM outbox_attempts');
  const resets = await s.sql.all<Record<string, unknown>>('SELECT * FROM password_resets');
  const audit = await s.sql.all<Record<string, unknown>>('SELECT * FROM admin_audit');
  return JSON.stringify([outbox, attempts, resets, audit]);
}

describe('without SMTP_URL: what an administrator, a backup and a log can see', () => {
  let s: TestServer;
  let admin: TestUser;
  const lines: string[] = [];
  beforeAll(async () => {
    // LOG_LEVEL=info: every line the server writes is captured, the access lines too.
    s = await startTestServer({ mail: mailConfig(null), logLevel: 'info' });
    admin = await s.user(['admin'], 'admin');
  });
  afterAll(() => s.close());
  afterEach(() => vi.restoreAllMocks());

  /** Runs `fn` with stdout and stderr captured into `lines` (and still written nowhere else). */
  async function capturing<T>(fn: () => Promise<T>): Promise<T> {
    const keep = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(keep);
    vi.spyOn(process.stderr, 'write').mockImplementation(keep);
    try {
      return await fn();
    } finally {
      vi.restoreAllMocks();
    }
  }

  it('keeps the token sealed: the outbox API, the admin screen data and the database show no usable link', async () => {
    const member = await s.user([], 'victim');
    const answer = await capturing(() => forgot(s, member.email));
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ message: MESSAGES.passwordReset.sent });

    const [row] = await storedResets(s, member.email);
    expect(row).toBeDefined();
    // The bodies hold the slot, never the token; the secret beside them is sealed.
    expect(row!.text_body).toContain(`/reset-password#token=${SECRET_SLOT}`);
    expect(row!.html_body).toContain(`/reset-password#token=${SECRET_SLOT}`);
    expect(row!.sealed_secret).toMatch(/^v1\./);
    // Only the account key opens it: what the sender will put in the link.
    const token = decodeURIComponent(s.ctx.secrets.open(row!.sealed_secret!)!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(SecretBox.fromSecret('another key of 32 characters ....').open(row!.sealed_secret!)).toBeNull();

    // The administrator's view: the mail is there, its link hidden.
    const list = await capturing(() => s.get(`${ADMIN_PATHS.outbox}?limit=100`, admin.token));
    expect(list.status).toBe(200);
    const mail = list.body.items.find((m: { id: number }) => m.id === row!.id);
    expect(mail.text).toContain(`/reset-password#token=${OUTBOX_HIDDEN_SECRET}`);
    expect(mail.html).toContain(`/reset-password#token=${OUTBOX_HIDDEN_SECRET}`);
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect(JSON.stringify(list.body)).not.toContain(row!.sealed_secret!);
    expect(JSON.stringify(list.body)).not.toContain(SECRET_SLOT);

    // Nothing in the database holds the token: not the outbox, its attempts, the reset rows, the audit.
    expect(await everythingStored(s)).not.toContain(token);

    // It is the real token, and still works: sealed is not lost. A wrong one first (an error answer).
    expect((await capturing(() => reset(s, `${token.slice(1)}x`, 'Taken0ver123'))).status).toBe(400);
    expect((await capturing(() => reset(s, token, 'Taken0ver123'))).status).toBe(200);
    // No line the server wrote holds it (access lines, the warning that mail is off, the error answer).
    expect(lines.join('')).toContain('/api/auth/reset-password');
    expect(lines.join('')).not.toContain(token);
    expect(lines.join('')).not.toContain(token.slice(1));
  });

  it('says plainly in the operator log that mail is off; the requester is answered as always', async () => {
    const member = await capturing(() => s.user([], 'offline'));
    lines.length = 0;
    const known = await capturing(() => forgot(s, member.email));
    const unknown = await capturing(() => forgot(s, 'nobody.at.all@example.com'));
    expect(known.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    const warnings = lines
      .flatMap((l) => l.split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: string; msg?: string; userId?: number })
      .filter((l) => l.level === 'warn');
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: expect.stringMatching(/mail is off \(SMTP_URL is not set\); it waits in the outbox/),
        userId: member.id,
      }),
    ]);
  });

  it('writes every read of the outbox to the admin audit, with the mails it showed', async () => {
    const r = await s.get(`${ADMIN_PATHS.outbox}?status=pending&limit=5`, admin.token);
    expect(r.status).toBe(200);
    const audit = await s.sql.get<{ actor: string; action: string; target: string; detail: string }>(
      "SELECT actor, action, target, detail FROM admin_audit WHERE action = 'outbox.read' ORDER BY id DESC LIMIT 1",
    );
    expect(audit).toMatchObject({ actor: admin.username, action: 'outbox.read', target: 'outbox' });
    expect(JSON.parse(audit!.detail)).toEqual({
      status: 'pending',
      page: 1,
      mails: r.body.items.map((m: { id: number }) => m.id),
    });
  });

  it('a backup of the database holds only the sealed value', async () => {
    const member = await s.user([], 'backedup');
    await capturing(() => forgot(s, member.email));
    const [row] = await storedResets(s, member.email);
    const token = decodeURIComponent(s.ctx.secrets.open(row!.sealed_secret!)!);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-backup-'));
    const file = path.join(dir, 'outbox-backup');
    await databaseBackups(s.ctx.config).backup(file);
    const bytes = backupText(file);
    expect(bytes.includes(Buffer.from(row!.sealed_secret!))).toBe(true);
    expect(bytes.includes(Buffer.from(token))).toBe(false);
    // The key is not in the database, so not in its backup.
    expect(bytes.includes(Buffer.from(s.ctx.config.accountSecret ?? accountSecretFile(s)))).toBe(false);
  });
});

/** What a backup file holds, readable: SQLite's file as it is, PostgreSQL's custom (compressed) dump as SQL. */
function backupText(file: string): Buffer {
  if (!ON_POSTGRES) return fs.readFileSync(file);
  const bin = process.env.TEST_POSTGRES_PSQL ? path.dirname(process.env.TEST_POSTGRES_PSQL) : '';
  const out = spawnSync(path.join(bin, 'pg_restore'), ['--file=-', file], { maxBuffer: 256 * 1024 * 1024 });
  if (out.status !== 0) throw new Error(`pg_restore: ${out.stderr}`);
  return out.stdout;
}

/** The account secret the server generated beside its database (SQLite) when none was configured. */
function accountSecretFile(s: TestServer): string {
  return fs.readFileSync(path.join(path.dirname(s.ctx.config.dbPath), ACCOUNT_SECRET_FILE), 'utf8').trim();
}

describe('with SMTP: the sender puts the token in, then forgets it', () => {
  let smtp: TestSmtp;
  let s: TestServer;
  let clock = Date.now();
  beforeAll(async () => {
    smtp = await new TestSmtp().listen();
    s = await startTestServer(
      { mail: mailConfig(smtp.url), publicSiteUrl: 'https://site.test' },
      () => clock,
    );
  });
  afterAll(async () => {
    await s.close();
    await smtp.close();
  });

  const resetMails = (email: string) => smtp.to(email).filter((m) => /Reset your/.test(m.subject));

  it('delivers the working link in the fragment, and clears the sealed value once sent', async () => {
    const u = await s.user([], 'delivered');
    await forgot(s, u.email);
    const mail = await smtp.waitFor(u.email, /Reset your/);
    expect(mail.text).toMatch(/https:\/\/site\.test\/reset-password#token=[A-Za-z0-9_-]{43}\n/);
    expect(mail.html).toMatch(/href="https:\/\/site\.test\/reset-password#token=[A-Za-z0-9_-]{43}"/);
    expect(mail.text).not.toContain(SECRET_SLOT);
    const token = resetToken(mail);
    const [row] = await waitUntil(async () => {
      const rows = await storedResets(s, u.email);
      return rows[0]?.status === 'sent' ? rows : undefined;
    });
    expect(row!.sealed_secret).toBeNull();
    expect(row!.text_body).not.toContain(token);
    expect(await everythingStored(s)).not.toContain(token);
    expect((await reset(s, token, 'Delivered123x')).status).toBe(200);
  });

  it('20 requests for one account: 3 mails, no more, and the link the owner holds keeps working', async () => {
    const u = await s.user([], 'flooded');
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await forgot(s, u.email));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await storedResets(s, u.email)).toHaveLength(3);
    await smtp.until(() => resetMails(u.email).length === 3);
    // The newest link: the 17 requests past the limit did not void it.
    const tokens = resetMails(u.email).map(resetToken);
    expect((await reset(s, tokens[0]!, 'Flooded123x')).status).toBe(400);
    expect((await reset(s, tokens[2]!, 'Flooded123x')).status).toBe(200);
    expect(resetMails(u.email)).toHaveLength(3);

    // An hour later the account may be sent a link again.
    clock += 3_600_001;
    try {
      await forgot(s, u.email);
      await smtp.until(() => resetMails(u.email).length === 4);
    } finally {
      clock = Date.now();
    }
  });

  it('sets no cookie at all (sessions are bearer tokens), so none can lose Secure behind a proxy', async () => {
    const u = await s.user([], 'cookieless');
    const answers = [
      await s.post('/api/login', { username: u.email, password: u.password }),
      await forgot(s, u.email),
      await s.get('/api/profile', u.token),
      await reset(s, 'x'.repeat(43), 'Whatever123x'),
    ];
    for (const a of answers) expect(a.headers.getSetCookie()).toEqual([]);
  });

  it('answers a limited request as fast as any other (the same floor)', async () => {
    const u = await s.user([], 'timed');
    for (let i = 0; i < 3; i++) await forgot(s, u.email);
    const t = performance.now();
    const limited = await forgot(s, u.email);
    expect(limited.status).toBe(202);
    expect(performance.now() - t).toBeGreaterThanOrEqual(240);
  });

  it('gives up at once on a mail whose sealed secret no longer opens (another account key), and clears it', async () => {
    const u = await s.user([], 'rekeyed');
    const foreign = SecretBox.fromSecret('a key from another install, 32+ chars').seal('x'.repeat(43));
    const id = await s.sql.transaction(async (tx) => {
      const mailId = await s.ctx.outbox.enqueue(tx, u.email, {
        kind: 'password-reset',
        subject: 'Reset your password',
        text: `link: ${SECRET_SLOT}`,
        html: `<p>${SECRET_SLOT}</p>`,
      });
      await tx.run('UPDATE outbox SET sealed_secret = ? WHERE id = ?', [foreign, mailId]);
      return mailId;
    });
    await s.server.mailSender!.kick();
    const row = await waitUntil(async () => {
      const r = await s.sql.get<{
        status: string;
        attempts: number;
        sealed_secret: string | null;
        last_error: string;
      }>('SELECT status, attempts, sealed_secret, last_error FROM outbox WHERE id = ?', [id]);
      return r?.status === 'failed' ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sealed_secret: null });
    expect(row.last_error).toMatch(/account key/);
    expect(resetMails(u.email)).toHaveLength(0);
  });
});

describe('assessment confirmations per address', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      mail: mailConfig(null, { assessmentPerAddress: { limit: 2, windowMs: 86_400_000 } }),
    });
  });
  afterAll(() => s.close());

  it('stores every assessment, but mails one address at most the cap a day, whatever its letter case', async () => {
    const send = (email: string) => s.post(API_PATHS.marketAssessment, surveyAnswers({ email }));
    const answers = [];
    for (const email of [
      'target@example.com',
      'Target@Example.com',
      'TARGET@example.com',
      'target@example.com',
    ])
      answers.push(await send(email));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const stored = Number(
      await s.sql.value("SELECT COUNT(*) FROM market_assessments WHERE lower(email) = 'target@example.com'"),
    );
    expect(stored).toBe(4);
    const mails = Number(
      await s.sql.value(
        "SELECT COUNT(*) FROM outbox WHERE lower(to_address) = 'target@example.com' AND kind = 'assessment-received'",
      ),
    );
    expect(mails).toBe(2);
    // Another address is not held back by this one.
    expect((await send('someone.else@example.com')).status).toBe(201);
    expect(
      Number(await s.sql.value("SELECT COUNT(*) FROM outbox WHERE to_address = 'someone.else@example.com'")),
    ).toBe(1);
  });
});
