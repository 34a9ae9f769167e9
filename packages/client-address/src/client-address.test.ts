import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress, isProxyEntry, trustedProxies } from './client-address';

describe('clientAddress', () => {
  const proxies = trustedProxies(['127.0.0.1', '10.0.0.0/8', '::1']);

  it('is the socket peer unless the peer is a trusted proxy', () => {
    expect(clientAddress('203.0.113.7', '1.2.3.4', proxies)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7', undefined, proxies)).toBe('203.0.113.7');
    expect(clientAddress('127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
    expect(clientAddress(undefined, '1.2.3.4', proxies)).toBe('unknown');
  });

  it('behind trusted proxies: the nearest hop that is not one; garbage stops the walk', () => {
    expect(clientAddress('127.0.0.1', '1.2.3.4', proxies)).toBe('1.2.3.4');
    expect(clientAddress('::ffff:127.0.0.1', '9.9.9.9, 1.2.3.4, 10.0.0.5', proxies)).toBe('1.2.3.4');
    expect(clientAddress('::1', '10.0.0.6, 10.0.0.5', proxies)).toBe('10.0.0.6');
    expect(clientAddress('127.0.0.1', 'nonsense, 10.0.0.5', proxies)).toBe('10.0.0.5');
    expect(clientAddress('127.0.0.1', 'nonsense', proxies)).toBe('127.0.0.1');
  });

  it('trusts nobody without TRUSTED_PROXIES', () => {
    expect(clientAddress('127.0.0.1', '1.2.3.4', trustedProxies([]))).toBe('127.0.0.1');
  });
});

describe('isProxyEntry', () => {
  it('takes addresses and CIDR ranges of both families, nothing else', () => {
    for (const ok of ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '0.0.0.0/0'])
      expect(isProxyEntry(ok)).toBe(true);
    for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '1.2.3', '10.0.0.0/8/1', '1.2.3.4/x']) {
      expect(isProxyEntry(bad)).toBe(false);
    }
  });
});

describe('addressKey', () => {
  it('keeps an IPv4 address, also one mapped into IPv6', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('groups an IPv6 address by its /64, written one way whatever way it came', () => {
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1.2.3.4')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('returns anything unparseable as it is', () => {
    for (const junk of ['', 'unknown', 'not an address', '1.2.3.256', '010.1.1.1', '[::1]', '1::2::3'])
      expect(addressKey(junk)).toBe(junk);
  });
});
