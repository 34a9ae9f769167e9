import * as v from 'valibot';

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
  page: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, 'page must be a positive number'),
      v.transform(Number),
      v.minValue(1, 'page must be a positive number'),
    ),
    '1',
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'limit must be 1 to 100'),
      v.transform(Number),
      v.minValue(1, 'limit must be 1 to 100'),
      v.maxValue(100, 'limit must be 1 to 100'),
    ),
    '20',
  ),
});

const Ms = v.pipe(v.number(), v.integer());

export const OutboxAttemptSchema = v.object({ at: Ms, ok: v.boolean(), error: v.nullable(v.string()) });
export type OutboxAttempt = v.InferOutput<typeof OutboxAttemptSchema>;

export const OutboxMailSchema = v.object({
  id: v.number(),
  kind: v.string(),
  to: v.string(),
  subject: v.string(),
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

export const OutboxPageSchema = v.object({
  items: v.array(OutboxMailSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});
export type OutboxPage = v.InferOutput<typeof OutboxPageSchema>;
