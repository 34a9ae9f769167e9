import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { OutboxPageSchema } from '@app/contracts/outbox';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registration, startTestServer, surveyAnswers, type TestServer, type TestUser } from './helpers';
import { mailConfig, TestSmtp, waitUntil } from './smtp-fixture';

/** Issue 34: every mail the product promises arrives at a real SMTP server, escaped. */
let smtp: TestSmtp;
/** Outbox rows matching `where`: every mail the product will ever send for it. */
const outboxRows = async (where: string, params: unknown[]) =>
  Number(await s.sql.value(`SELECT COUNT(*) FROM outbox WHERE ${where}`, params));
let s: TestServer;
let admin: TestUser;

beforeAll(async () => {
  smtp = await new TestSmtp().listen();
  s = await startTestServer({ mail: mailConfig(smtp.url), publicSiteUrl: 'http://site.test' });
  admin = await s.user(['admin'], 'admin');
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

describe('mail through SMTP', () => {
  it('sends the visitor what they asked for, with every value they typed escaped in the HTML', async () => {
    const email = 'visitor1@example.com';
    const r = await s.post(API_PATHS.marketAssessment, {
      ...surveyAnswers({ email, consultationInterest: true, communicationMethod: 'email-phone' }),
      firstName: '<b>Lea</b>',
      company: '"Acme" & <script>alert(1)</script>',
      phone: '+49 <img src=x onerror=alert(1)>',
    });
    expect(r.status).toBe(201);
    const mail = await smtp.waitFor(email, /market assessment/);
    expect(mail.text).toContain('Preferred communication: Email and a phone call');
    expect(mail.text).toContain('Free consultation: yes, please');
    expect(mail.text).toContain('What happens next');
    expect(mail.html).toContain('Hello &lt;b&gt;Lea&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Lea</b>');
    expect(mail.html).not.toContain('<img');
    expect(mail.headers.get('x-mail-kind')).toBe('assessment-received');

    // The administrators are told of the consultation, the company escaped too.
    const notice = await smtp.waitFor(admin.email, /consultation/);
    expect(notice.text).toContain('Company: "Acme" & <script>alert(1)</script>');
    expect(notice.html).toContain('&quot;Acme&quot; &amp; &lt;script&gt;');
    expect(notice.html).not.toContain('<script>');
  });

  it('sends no admin notice when no consultation is wanted, and one visitor mail per stored assessment', async () => {
    const email = 'visitor2@example.com';
    const consultations = () =>
      outboxRows("to_address = ? AND kind = 'admin-consultation-requested'", [admin.email]);
    const before = await consultations();
    expect(
      (await s.post(API_PATHS.marketAssessment, surveyAnswers({ email, consultationInterest: false })))
        .status,
    ).toBe(201);
    const mail = await smtp.waitFor(email);
    expect(mail.text).toContain('Free consultation: not requested');
    // Every mail is an outbox row first, written with the assessment before the API answered: the rows say
    // what will ever be sent, with no wait for a mail that might come later.
    expect(await outboxRows('to_address = ?', [email])).toBe(1);
    expect(smtp.to(email)).toHaveLength(1);
    expect(await consultations()).toBe(before);
  });

  it('tells administrators of a waiting registration, and the member when activated (API and service)', async () => {
    const reg = registration({ username: 'waiting_one', email: 'waiting.one@example.com' });
    expect((await s.post(API_PATHS.register, reg)).status).toBe(201);
    const notice = await smtp.waitFor(admin.email, /waiting for activation/);
    expect(notice.text).toContain('Email: waiting.one@example.com');

    const id = (await s.ctx.accounts.resolveUser('waiting.one@example.com'))!.id;
    expect((await s.post(ADMIN_PATHS.activate(id), undefined, admin.token)).status).toBe(200);
    const mail = await smtp.waitFor('waiting.one@example.com', /is active/);
    expect(mail.text).toContain('http://site.test/login');
    expect(mail.text).toContain('Hello Jane,');

    // Activating again tells nobody twice; the CLI's way (the service) sends it like the API.
    await s.post(ADMIN_PATHS.activate(id), undefined, admin.token);
    const reg2 = registration({ username: 'waiting_two', email: 'waiting.two@example.com' });
    await s.post(API_PATHS.register, reg2);
    await s.ctx.accounts.activate('waiting.two@example.com');
    await smtp.waitFor('waiting.two@example.com', /is active/);
    expect(
      await outboxRows("to_address = ? AND kind = 'account-activated'", ['waiting.one@example.com']),
    ).toBe(1);
    expect(smtp.to('waiting.one@example.com')).toHaveLength(1);
  });

  it('lists the outbox for administrators only, each mail with its attempts', async () => {
    const member = await s.user([], 'member');
    expect((await s.get(ADMIN_PATHS.outbox)).status).toBe(401);
    expect((await s.get(ADMIN_PATHS.outbox, member.token)).status).toBe(403);
    expect((await s.get(`${ADMIN_PATHS.outbox}?status=lost`, admin.token)).status).toBe(400);
    expect((await s.get(`${ADMIN_PATHS.outbox}?limit=500`, admin.token)).status).toBe(400);
    expect((await s.get(`${ADMIN_PATHS.outbox}?page=0`, admin.token)).status).toBe(400);

    // Every mail delivered: none waiting, and none being sent (one that turns "sent" between the two pages
    // below would shift the second page by one).
    await waitUntil(async () => {
      const { counts } = (await s.get(ADMIN_PATHS.outboxSummary, admin.token)).body;
      return (counts.pending === 0 && counts.sending === 0) || undefined;
    });
    const r = await s.get(`${ADMIN_PATHS.outbox}?status=sent&limit=2`, admin.token);
    expect(r.status).toBe(200);
    expect(v.is(OutboxPageSchema, r.body)).toBe(true);
    expect(r.body.items).toHaveLength(2);
    expect(r.body.total).toBeGreaterThan(2);
    expect(r.body.items[0].id).toBeGreaterThan(r.body.items[1].id);
    expect(r.body.items[0].attempt_log).toEqual([{ at: expect.any(Number), ok: true, error: null }]);
    const page2 = await s.get(`${ADMIN_PATHS.outbox}?status=sent&limit=2&page=2`, admin.token);
    expect(page2.body.items[0].id).toBeLessThan(r.body.items[1].id);
  });
});

describe('without SMTP_URL', () => {
  it('keeps every mail in the outbox, pending and never attempted, for administrators to read', async () => {
    const quiet = await startTestServer({ mail: mailConfig(null) });
    try {
      const boss = await quiet.user(['admin'], 'boss');
      await quiet.post(API_PATHS.marketAssessment, surveyAnswers({ email: 'nobody@example.com' }));
      // Nothing could attempt it: without SMTP_URL the server runs no sender at all.
      expect(quiet.server.mailSender).toBeNull();
      const r = await quiet.get(`${ADMIN_PATHS.outbox}?status=pending`, boss.token);
      const mail = r.body.items.find((m: { to: string }) => m.to === 'nobody@example.com');
      expect(mail).toMatchObject({
        status: 'pending',
        attempts: 0,
        attempt_log: [],
        kind: 'assessment-received',
      });
      expect(quiet.server.mailSender).toBeNull();
    } finally {
      await quiet.close();
    }
  });
});
