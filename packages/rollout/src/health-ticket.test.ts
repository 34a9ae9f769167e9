import { describe, expect, it } from 'vitest';
import { issueTicket, ticketKey, trackInTicket, verifyTicket, visitorPseudonym } from './health-ticket';

const key = ticketKey('an-edge-secret-for-these-tests');
const remotes = {
  'mf-research': { version: '1.1.0-bbbbbbbbbb', track: 'canary' as const, fallback: '1.0.0-aaaaaaaaaa' },
  'mf-account': { version: '2.0.0-cccccccccc', track: 'stable' as const, fallback: null },
};

describe('health tickets', () => {
  it('verify with the key they were issued with, naming the visitor and the versions served', () => {
    const { ticket, expiresAt } = issueTicket({ visitorKey: 'user:7', remotes, now: 1_000_000 }, key);
    expect(ticket.length).toBeLessThan(400);
    const verdict = verifyTicket(ticket, key, 1_000_001);
    expect(verdict).toEqual({
      ok: true,
      ticket: { id: expect.any(String), visitor: visitorPseudonym('user:7', key), expiresAt, remotes },
    });
    expect(Buffer.from(ticket.split('.')[0]!, 'base64url').toString()).not.toContain('user:7');
  });

  it('refuse a forged, edited, expired or garbled ticket', () => {
    const { ticket, expiresAt } = issueTicket({ visitorKey: 'anon:x', remotes }, key);
    expect(verifyTicket(ticket, ticketKey('another-secret-entirely'))).toEqual({
      ok: false,
      reason: 'forged',
    });
    const [payload, signature] = ticket.split('.');
    const edited = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    edited.e += 3600;
    expect(
      verifyTicket(`${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${signature}`, key),
    ).toEqual({
      ok: false,
      reason: 'forged',
    });
    expect(verifyTicket(ticket, key, expiresAt)).toEqual({ ok: false, reason: 'expired' });
    for (const bad of [undefined, 42, '', 'a', 'a.b.c', 'x'.repeat(2000)])
      expect(verifyTicket(bad, key).ok).toBe(false);
  });

  it('cover the version served and the stable it falls back to, nothing else', () => {
    const verdict = verifyTicket(issueTicket({ visitorKey: 'anon:x', remotes }, key).ticket, key);
    if (!verdict.ok) throw new Error(verdict.reason);
    expect(trackInTicket(verdict.ticket, 'mf-research', '1.1.0-bbbbbbbbbb')).toBe('canary');
    expect(trackInTicket(verdict.ticket, 'mf-research', '1.0.0-aaaaaaaaaa')).toBe('stable');
    expect(trackInTicket(verdict.ticket, 'mf-research', '2.0.0-cccccccccc')).toBeNull();
    expect(trackInTicket(verdict.ticket, 'mf-survey', '1.0.0-aaaaaaaaaa')).toBeNull();
  });
});
