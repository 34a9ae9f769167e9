import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The edge's batches of server-render figures to the API (docs/decisions/0043-server-signals-in-the-gate.md)
 * are signed with a key derived from the secret the two already share for health tickets (EDGE_SECRET), in a
 * derivation of its own so a ticket's MAC can never pass for a batch's or the other way round. The MAC covers
 * the time it was sent and the exact body; the API refuses a batch whose time is further than
 * RENDER_REPORT_MAX_SKEW_MS from its own clock (a captured batch cannot be sent again later) and a batch id
 * it has already stored (nor sent again within that window).
 */
export const RENDER_REPORT_TIME_HEADER = 'x-edge-report-time';
export const RENDER_REPORT_SIGNATURE_HEADER = 'x-edge-report-signature';
export const RENDER_REPORT_MAX_SKEW_MS = 5 * 60_000;
/** A batch covers a few remotes × versions × tracks × minutes: far below this. */
export const RENDER_REPORT_MAX_BYTES = 64 * 1024;

export function renderReportKey(edgeSecret: string): Buffer {
  return createHmac('sha256', edgeSecret).update('render-report v1').digest();
}

const mac = (time: string, body: string, key: Buffer) =>
  createHmac('sha256', key).update(`${time}\n${body}`).digest();

/** The headers that prove a batch's body came from an edge, now. */
export function signRenderReport(body: string, key: Buffer, now = Date.now()): Record<string, string> {
  const time = String(now);
  return {
    [RENDER_REPORT_TIME_HEADER]: time,
    [RENDER_REPORT_SIGNATURE_HEADER]: mac(time, body, key).toString('base64url'),
  };
}

export type RenderReportVerdict = { ok: true } | { ok: false; reason: 'unsigned' | 'forged' | 'stale' };

export function verifyRenderReport(
  body: string,
  time: string | undefined,
  signature: string | undefined,
  key: Buffer,
  now = Date.now(),
): RenderReportVerdict {
  if (!time || !signature || !/^\d{1,15}$/.test(time)) return { ok: false, reason: 'unsigned' };
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(time, body, key);
  // Checked before the time: a forger learns nothing about our clock.
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'forged' };
  if (Math.abs(now - Number(time)) > RENDER_REPORT_MAX_SKEW_MS) return { ok: false, reason: 'stale' };
  return { ok: true };
}
