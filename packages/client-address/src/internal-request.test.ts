import { describe, expect, it } from 'vitest';
import { isInternalRequest } from './internal-request';

const request = (remoteAddress: string | undefined, headers: Record<string, string> = {}) => ({
  headers,
  socket: { remoteAddress },
});

describe('isInternalRequest', () => {
  it('loopback and private peers of both families, IPv4-mapped too', () => {
    for (const peer of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.1',
      'fd00::5',
    ])
      expect(isInternalRequest(request(peer)), peer).toBe(true);
  });

  it('never a public peer, an unknown one, or anything a proxy passed on', () => {
    for (const peer of ['203.0.113.7', '172.32.0.1', '2001:db8::1', '', undefined])
      expect(isInternalRequest(request(peer)), String(peer)).toBe(false);
    expect(isInternalRequest(request('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
    expect(isInternalRequest(request('127.0.0.1', { forwarded: 'for=127.0.0.1' }))).toBe(false);
  });
});
