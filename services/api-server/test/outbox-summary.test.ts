import { createServer } from 'node:net';
import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { describe, expect, it } from 'vitest';
import { startTestServer, surveyAnswers, type TestServer } from './helpers';
import { mailConfig, TestSmtp, waitUntil } from './smtp-fixture';

/**
 * Issue 34, "the SMTP server down or refusing: nothing is lost, the outbox retries, the admin sees the
 * failures": GET /api/admin/outbox/summary (what the outbox screen's banner and the Admin menu's badge
 * say) through a real SMTP server that is away, then refuses, then takes mail again.
 */

/** A port nothing listens on (taken, then freed). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

const summary = async (s: TestServer, token: string) => {
  const r = await s.get(ADMIN_PATHS.outboxSummary, token);
  expect(r.status).toBe(200);
  return r.body;
};

async function mailTo(s: TestServer, token: string, to: string) {
  const r = await s.get(`${ADMIN_PATHS.outbox}?limit=100`, token);
  return r.body.items.find((m: { to: string }) => m.to === to);
}

/** Waits until the mail to `to` has a failed attempt whose error matches `error`. */
const triedWith = (s: TestServer, token: string, to: string, error: RegExp) =>
  waitUntil(async () => {
    const m = await mailTo(s, token, to);
    return m?.attempt_log.some((a: { ok: boolean; error: string }) => !a.ok && error.test(a.error))
      ? m
      : undefined;
  });

describe('GET /api/admin/outbox/summary', () => {
  it('is for administrators only: 401 for a guest, 403 for a member', async () => {
    const s = await startTestServer({ mail: mailConfig(null) });
    try {
      const member = await s.user([], 'member');
      expect((await s.get(ADMIN_PATHS.outboxSummary)).status).toBe(401);
      expect((await s.get(ADMIN_PATHS.outboxSummary, member.token)).status).toBe(403);
      expect((await s.get(ADMIN_PATHS.outbox, member.token)).status).toBe(403);
    } finally {
      await s.close();
    }
  });

  it('without SMTP_URL: not configured, every mail pending, untried, no error', async () => {
    const s = await startTestServer({ mail: mailConfig(null) });
    try {
      const admin = await s.user(['admin'], 'admin');
      await s.post(API_PATHS.marketAssessment, surveyAnswers({ email: 'kept@example.com' }));
      const sum = await summary(s, admin.token);
      expect(sum.smtpConfigured).toBe(false);
      expect(sum.counts.pending).toBeGreaterThanOrEqual(1);
      expect(sum.counts).toMatchObject({ sending: 0, sent: 0, failed: 0 });
      expect(sum).toMatchObject({ lastError: null, lastSentAt: null });
      expect((await mailTo(s, admin.token, 'kept@example.com')).attempts).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('down, then refusing (550, 421), then back: the failures are shown, nothing is lost or sent twice', async () => {
    const port = await freePort();
    const s = await startTestServer({
      mail: mailConfig(`smtp://127.0.0.1:${port}`, { maxAttempts: 50, retryBaseMs: 60, retryFactor: 1 }),
    });
    const smtp = new TestSmtp();
    try {
      const admin = await s.user(['admin'], 'admin');
      const to = 'waiting@example.com';
      await s.post(API_PATHS.marketAssessment, surveyAnswers({ email: to }));

      // Down: nothing listens. The mail stays pending with its attempts, and the summary says why.
      const down = await waitUntil(async () => {
        const sum = await summary(s, admin.token);
        return /ECONNREFUSED/.test(sum.lastError?.error ?? '') ? sum : undefined;
      });
      expect(down.smtpConfigured).toBe(true);
      expect(down.counts.pending + down.counts.sending).toBeGreaterThanOrEqual(1);
      expect(down.counts.sent).toBe(0);
      expect(down.lastSentAt).toBeNull();
      const waiting = await waitUntil(async () => {
        const m = await mailTo(s, admin.token, to);
        return m?.attempts >= 2 ? m : undefined;
      });
      expect(waiting.status).not.toBe('sent');
      expect(waiting.attempt_log.every((a: { ok: boolean }) => !a.ok)).toBe(true);

      // Up but refusing every recipient: the newest error is the server's 550.
      smtp.mode = 'refuse';
      await smtp.listen(port);
      const refused = await waitUntil(async () => {
        const sum = await summary(s, admin.token);
        return /^550/.test(sum.lastError?.error ?? '') ? sum : undefined;
      });
      expect(refused.lastError.at).toBeGreaterThanOrEqual(down.lastError.at);
      await triedWith(s, admin.token, to, /^550/);

      // Busy: a temporary 421 after the message; still recorded, still retried.
      smtp.mode = 'busy';
      await waitUntil(async () => /^421/.test((await summary(s, admin.token)).lastError?.error ?? ''));
      await triedWith(s, admin.token, to, /^421/);
      expect(smtp.received).toHaveLength(0);

      // Back: everything waiting is delivered, once each.
      smtp.mode = 'accept';
      await smtp.waitFor(to, /market assessment/, 8000);
      const healthy = await waitUntil(async () => {
        const sum = await summary(s, admin.token);
        return sum.counts.pending + sum.counts.sending === 0 ? sum : undefined;
      }, 8000);
      expect(healthy.counts.failed).toBe(0);
      expect(healthy.counts.sent).toBe(smtp.received.length);
      expect(healthy.lastSentAt).toBeGreaterThanOrEqual(healthy.lastError.at);
      const ids = smtp.received.map((m) => m.headers.get('x-outbox-id'));
      expect(new Set(ids).size).toBe(ids.length);
      const sent = await mailTo(s, admin.token, to);
      expect(sent.status).toBe('sent');
      const errors = sent.attempt_log
        .filter((a: { ok: boolean }) => !a.ok)
        .map((a: { error: string }) => a.error);
      expect(errors.some((e: string) => /ECONNREFUSED/.test(e))).toBe(true);
      expect(errors.some((e: string) => /^550/.test(e))).toBe(true);
      expect(errors.some((e: string) => /^421/.test(e))).toBe(true);
      expect(sent.attempt_log.at(-1)).toMatchObject({ ok: true, error: null });
    } finally {
      await s.close();
      await smtp.close();
    }
  });

  it('counts the mails that ran out of attempts as failed', async () => {
    const smtp = await new TestSmtp().listen();
    smtp.mode = 'refuse';
    const s = await startTestServer({ mail: mailConfig(smtp.url, { maxAttempts: 2, retryBaseMs: 50 }) });
    try {
      const admin = await s.user(['admin'], 'admin');
      await s.post(API_PATHS.marketAssessment, surveyAnswers({ email: 'given-up@example.com' }));
      const sum = await waitUntil(async () => {
        const x = await summary(s, admin.token);
        return x.counts.pending + x.counts.sending === 0 ? x : undefined;
      }, 8000);
      expect(sum.counts.failed).toBeGreaterThanOrEqual(1);
      expect(sum.counts.sent).toBe(0);
      expect(sum.lastError.error).toMatch(/^550/);
      const failed = await s.get(`${ADMIN_PATHS.outbox}?status=failed`, admin.token);
      expect(failed.body.total).toBe(sum.counts.failed);
    } finally {
      await s.close();
      await smtp.close();
    }
  });
});
