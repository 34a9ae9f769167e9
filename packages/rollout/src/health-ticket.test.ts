import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addressPseudonym,
  issueTicket,
  MAX_TICKET_LENGTH,
  ticketKey,
  trackInTicket,
  verifyTicket,
  visitorPseudonym,
} from './health-ticket';
import { REMOTE_PACKAGES } from './remotes';

const key = ticketKey('an-edge-secret-for-these-tests');
const remotes = {
  'mf-research': { version: '1.1.0-bbbbbbbbbb', track: 'canary' as const, fallback: '1.0.0-aaaaaaaaaa' },
  'mf-account': { version: '2.0.0-cccccccccc', track: 'stable' as const, fallback: null },
};
const page = { environment: 'production', address: '203.0.113.7', remotes };
const claimsOf = (ticket: string) => JSON.parse(Buffer.from(ticket.split('.')[0]!, 'base64url').toString());
/** A token signed with `key` over any claims: what an old edge issued, or a bug would. */
const signed = (claims: object) => {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
};

describe('health tickets', () => {
  it('verify with the key they were issued with, naming the visitor, environment, address and versions', () => {
    const { ticket, expiresAt } = issueTicket(
      { ...page, visitorKey: 'user:7', renderFailures: ['mf-research'], now: 1_000_000 },
      key,
    );
    expect(ticket.length).toBeLessThan(500);
    const verdict = verifyTicket(ticket, key, 1_000_001);
    expect(verdict).toEqual({
      ok: true,
      ticket: {
        id: expect.any(String),
        visitor: visitorPseudonym('user:7', key),
        environment: 'production',
        address: addressPseudonym('203.0.113.7', key),
        expiresAt,
        remotes,
        renderFailures: ['mf-research'],
      },
    });
    const claims = claimsOf(ticket);
    expect(claims).toMatchObject({ n: 'production', a: expect.any(String), x: ['mf-research'] });
    // Neither the cohort key nor the address is in it, only their pseudonyms.
    expect(JSON.stringify(claims)).not.toMatch(/user:7|203\.0\.113/);
  });

  it('leave out render failures when there are none', () => {
    const { ticket } = issueTicket({ ...page, visitorKey: 'anon:x', renderFailures: [] }, key);
    expect(claimsOf(ticket).x).toBeUndefined();
    const verdict = verifyTicket(ticket, key);
    expect(verdict.ok && verdict.ticket.renderFailures).toEqual([]);
  });

  it('give the same address group the same pseudonym, and another group another', () => {
    const addressOf = (address: string) => {
      const verdict = verifyTicket(issueTicket({ ...page, address, visitorKey: 'anon:x' }, key).ticket, key);
      return verdict.ok ? verdict.ticket.address : verdict.reason;
    };
    expect(addressOf('198.51.100.1')).toBe(addressOf('198.51.100.1'));
    expect(addressOf('198.51.100.1')).not.toBe(addressOf('198.51.100.2'));
  });

  it('stay under MAX_TICKET_LENGTH at their largest: four remotes, long versions, every render failure', () => {
    const long = `999999999.999999999.999999999-${'a'.repeat(39)}-0123456789`;
    expect(long).toHaveLength(80);
    const all = Object.fromEntries(
      REMOTE_PACKAGES.map((remote) => [remote, { version: long, track: 'canary' as const, fallback: long }]),
    );
    const { ticket } = issueTicket(
      {
        visitorKey: `anon:${'k'.repeat(64)}`,
        environment: `e${'x'.repeat(31)}`,
        address: '2001:db8:1:2::/64',
        remotes: all,
        renderFailures: [...REMOTE_PACKAGES],
      },
      key,
    );
    expect(ticket.length).toBeLessThan(MAX_TICKET_LENGTH);
    expect(verifyTicket(ticket, key).ok).toBe(true);
  });

  it('refuse an environment name the API could not read, where they are issued', () => {
    expect(() => issueTicket({ ...page, environment: 'Prod/../x', visitorKey: 'anon:x' }, key)).toThrow(
      /not an environment name/,
    );
  });

  it('refuse a ticket of the old format (no environment, no address) as malformed', () => {
    const { ticket } = issueTicket({ ...page, visitorKey: 'anon:x' }, key);
    const { n, a, ...old } = claimsOf(ticket);
    expect([n, a].every((claim) => typeof claim === 'string')).toBe(true);
    for (const claims of [old, { ...old, n }, { ...old, a }]) {
      expect(verifyTicket(signed(claims), key)).toEqual({ ok: false, reason: 'malformed' });
    }
    // Signed, but with claims no edge writes: malformed too.
    for (const claims of [
      { ...old, n: 'Production', a },
      { ...old, n, a: 'short' },
      { ...old, n, a, x: 'mf-research' },
      { ...old, n, a, x: ['shell'] },
      { ...old, n, a, x: ['mf-research', 'mf-research'] },
    ]) {
      expect(verifyTicket(signed(claims), key)).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(verifyTicket(signed({ ...old, n, a }), key).ok).toBe(true);
  });

  it('refuse a forged, edited, expired or garbled ticket', () => {
    const { ticket, expiresAt } = issueTicket({ ...page, visitorKey: 'anon:x' }, key);
    expect(verifyTicket(ticket, ticketKey('another-secret-entirely'))).toEqual({
      ok: false,
      reason: 'forged',
    });
    const signature = ticket.split('.')[1];
    for (const edit of [
      (c: { e: number }) => ({ ...c, e: c.e + 3600 }),
      (c: object) => ({ ...c, n: 'staging' }),
      (c: object) => ({ ...c, x: ['mf-research'] }),
    ]) {
      const edited = Buffer.from(JSON.stringify(edit(claimsOf(ticket)))).toString('base64url');
      expect(verifyTicket(`${edited}.${signature}`, key)).toEqual({ ok: false, reason: 'forged' });
    }
    expect(verifyTicket(ticket, key, expiresAt)).toEqual({ ok: false, reason: 'expired' });
    for (const bad of [undefined, 42, '', 'a', 'a.b.c', 'x'.repeat(MAX_TICKET_LENGTH + 1)])
      expect(verifyTicket(bad, key).ok).toBe(false);
  });

  it('cover the version served and the stable it falls back to, nothing else', () => {
    const verdict = verifyTicket(issueTicket({ ...page, visitorKey: 'anon:x' }, key).ticket, key);
    if (!verdict.ok) throw new Error(verdict.reason);
    expect(trackInTicket(verdict.ticket, 'mf-research', '1.1.0-bbbbbbbbbb')).toBe('canary');
    expect(trackInTicket(verdict.ticket, 'mf-research', '1.0.0-aaaaaaaaaa')).toBe('stable');
    expect(trackInTicket(verdict.ticket, 'mf-research', '2.0.0-cccccccccc')).toBeNull();
    expect(trackInTicket(verdict.ticket, 'mf-survey', '1.0.0-aaaaaaaaaa')).toBeNull();
  });
});
