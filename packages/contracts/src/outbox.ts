import * as v from 'valibot';
import { limitParam, pageOf, pageParam } from './paging';

/**
 * GET /api/admin/outbox (issue 34, docs/decisions/0031-outbox-and-mail.md): every mail the product sent or
 * would send, newest first, with each delivery attempt. Its own entry (`@app/contracts/outbox`) like the
 * deploy shapes: no browser bundle needs it yet.
 */
export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export const OutboxStatusSchema = v.picklist(
  OUTBOX_STATUSES,
  'status must be pending, sending, sent or failed',
);
export type OutboxStatus = v.InferOutput<typeof OutboxStatusSchema>;

/** The query: `page` from 1, `limit` up to 100, `status` optional. */
export const OutboxQuerySchema = v.object({
  status: v.optional(OutboxStatusSchema),
  page: pageParam(),
  limit: limitParam(20),
});

const Ms = v.pipe(v.number(), v.integer());

/**
 * What a mail's one-time secret (a reset link's token) reads as wherever the outbox is shown (issue 46,
 * docs/decisions/0039-account-secrets.md): the stored bodies never hold it, only the sender puts it in.
 */
export const OUTBOX_HIDDEN_SECRET = '[link hidden]';

export const OutboxAttemptSchema = v.object({ at: Ms, ok: v.boolean(), error: v.nullable(v.string()) });
export type OutboxAttempt = v.InferOutput<typeof OutboxAttemptSchema>;

export const OutboxMailSchema = v.object({
  id: v.number(),
  kind: v.string(),
  to: v.string(),
  subject: v.string(),
  /** The bodies as stored, with any one-time secret shown as OUTBOX_HIDDEN_SECRET. */
  text: v.string(),
  html: v.string(),
  status: OutboxStatusSchema,
  attempts: v.number(),
  created_at: Ms,
  next_attempt_at: Ms,
  sent_at: v.nullable(Ms),
  last_error: v.nullable(v.string()),
  attempt_log: v.array(OutboxAttemptSchema),
});
export type OutboxMail = v.InferOutput<typeof OutboxMailSchema>;

export const OutboxPageSchema = pageOf(OutboxMailSchema);
export type OutboxPage = v.InferOutput<typeof OutboxPageSchema>;

/** GET /api/admin/outbox/summary: how many mails per status and whether delivery is failing now. */
export const OutboxSummarySchema = v.object({
  /** False on the embedded default (no SMTP_URL): mail waits in the outbox to be read there. */
  smtpConfigured: v.boolean(),
  counts: v.object({ pending: v.number(), sending: v.number(), sent: v.number(), failed: v.number() }),
  /** The newest failed attempt, if any: when and what the SMTP server (or the connection) said. */
  lastError: v.nullable(v.object({ at: Ms, error: v.string() })),
  /** The newest successful delivery, epoch ms, or null. */
  lastSentAt: v.nullable(Ms),
});
export type OutboxSummary = v.InferOutput<typeof OutboxSummarySchema>;
