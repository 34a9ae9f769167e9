import { createServer } from 'node:net';
import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { describe, expect, it } from 'vitest';
import { startTestServer, surveyAnswers, type TestServer } from './helpers';
import { mailConfig, TestSmtp, waitUntil } from './smtp-fixture';

/** Issue 34: the SMTP server down or refusing: nothing is lost, the outbox retries, the admin sees it. */

/** A port nothing listens on (taken, then freed). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function outboxMail(s: TestServer, token: string, to: string) {
  const r = await s.get(`${ADMIN_PATHS.outbox}?limit=100`, token);
  expect(r.status).toBe(200);
  return r.body.items.find((m: { to: string }) => m.to === to);
}

/**
 * Ends each server's sender round under way and runs one more, instead of waiting a while: what a sender
 * would still do, it has done when this resolves.
 */
async function settleSenders(...servers: TestServer[]) {
  for (const server of servers) {
    await server.server.mailSender?.kick();
    await server.server.mailSender?.kick();
  }
}

describe('delivery failures', () => {
  it('retries a refused mail with growing waits, then marks it failed, every attempt on record', async () => {
    const smtp = await new TestSmtp().listen();
    smtp.mode = 'refuse';
    const s = await startTestServer({
      mail: mailConfig(smtp.url, { maxAttempts: 3, retryBaseMs: 150, retryFactor: 2 }),
    });
    try {
      const admin = await s.user(['admin'], 'admin');
      const to = 'refused@example.com';
      await s.post(API_PATHS.marketAssessment, surveyAnswers({ email: to }));
      const failed = await waitUntil(async () => {
        const m = await outboxMail(s, admin.token, to);
        return m?.status === 'failed' ? m : undefined;
      }, 8000);
      expect(failed.attempts).toBe(3);
      expect(failed.attempt_log).toHaveLength(3);
      for (const a of failed.attempt_log) {
        expect(a.ok).toBe(false);
        expect(a.error).toMatch(/550/);
      }
      expect(failed.last_error).toMatch(/550/);
      // Backoff: the second wait is about twice the first (150 ms, then 300 ms; polls add up to 30 ms).
      const [a1, a2, a3] = failed.attempt_log.map((a: { at: number }) => a.at);
      expect(a2 - a1).toBeGreaterThanOrEqual(150);
      expect(a3 - a2).toBeGreaterThanOrEqual(300);
      // Listed under the failed filter, and tried no more.
      const list = await s.get(`${ADMIN_PATHS.outbox}?status=failed`, admin.token);
      expect(list.body.items.map((m: { to: string }) => m.to)).toContain(to);
      // A round that was under way ends, and a fresh one runs: a failed mail is not due, so none tries it.
      await settleSenders(s);
      expect((await outboxMail(s, admin.token, to)).attempts).toBe(3);
      expect(smtp.to(to)).toHaveLength(0);
    } finally {
      await s.close();
      await smtp.close();
    }
  });

  it('loses nothing while the SMTP server is down, and delivers once it is back', async () => {
    const port = await freePort();
    const s = await startTestServer({
      mail: mailConfig(`smtp://127.0.0.1:${port}`, { maxAttempts: 20, retryBaseMs: 100, retryFactor: 1.5 }),
    });
    let smtp: TestSmtp | null = null;
    try {
      const admin = await s.user(['admin'], 'admin');
      const to = 'patient@example.com';
      await s.post(API_PATHS.marketAssessment, surveyAnswers({ email: to }));
      const waiting = await waitUntil(async () => {
        const m = await outboxMail(s, admin.token, to);
        return m?.attempts >= 2 ? m : undefined;
      });
      expect(waiting.status).not.toBe('sent');
      expect(waiting.attempt_log[0].error).toMatch(/ECONNREFUSED/);

      smtp = await new TestSmtp().listen(port);
      await smtp.waitFor(to, /market assessment/, 8000);
      const sent = await waitUntil(async () => {
        const m = await outboxMail(s, admin.token, to);
        return m?.status === 'sent' ? m : undefined;
      });
      expect(sent.attempt_log.at(-1)).toMatchObject({ ok: true, error: null });
      expect(sent.attempt_log.filter((a: { ok: boolean }) => !a.ok).length).toBeGreaterThanOrEqual(2);
      expect(smtp.to(to)).toHaveLength(1);
    } finally {
      await s.close();
      await smtp?.close();
    }
  });

  it('survives a server that hangs up mid-dialogue, and claims each mail once across two instances', async () => {
    const smtp = await new TestSmtp().listen();
    smtp.mode = 'close';
    const config = { mail: mailConfig(smtp.url, { maxAttempts: 10, retryBaseMs: 100, retryFactor: 1 }) };
    const a = await startTestServer(config);
    // A second API instance on the same database: both senders run, no mail goes twice.
    const b = await startTestServer({
      ...config,
      dbPath: a.ctx.config.dbPath,
      databaseUrl: a.ctx.config.databaseUrl,
    });
    try {
      const admin = await a.user(['admin'], 'admin');
      const to = (i: number) => `twice${i}@example.com`;
      for (let i = 0; i < 6; i++) await a.post(API_PATHS.marketAssessment, surveyAnswers({ email: to(i) }));
      // The first attempt is on record (failed) before the server takes mail again.
      const hungUp = await waitUntil(async () => (await outboxMail(a, admin.token, to(0)))?.attempt_log[0]);
      expect(hungUp).toMatchObject({ ok: false });
      smtp.mode = 'accept';
      for (let i = 0; i < 6; i++) await smtp.waitFor(to(i), /market assessment/, 8000);
      // Once every row is sent and both senders have ended their rounds, no delivery can still come.
      for (let i = 0; i < 6; i++)
        await waitUntil(
          async () => (await outboxMail(a, admin.token, to(i)))?.status === 'sent' || undefined,
        );
      await settleSenders(a, b);
      for (let i = 0; i < 6; i++) expect(smtp.to(to(i))).toHaveLength(1);
      const first = await waitUntil(async () => {
        const m = await outboxMail(a, admin.token, to(0));
        return m?.status === 'sent' ? m : undefined;
      });
      expect(first.attempt_log[0].ok).toBe(false);
      expect(first.attempt_log.at(-1).ok).toBe(true);
    } finally {
      await b.close();
      await a.close();
      await smtp.close();
    }
  });
});
