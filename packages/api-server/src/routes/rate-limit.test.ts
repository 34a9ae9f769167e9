import { describe, expect, it } from 'vitest';
import { addressKey, createFixedWindowLimiter } from './rate-limit';

describe('createFixedWindowLimiter', () => {
  it('allows `limit` hits per key per window, then says how long to wait', () => {
    const limiter = createFixedWindowLimiter(2, 60_000);
    const t = 1_800_000_000_000 + 15_000; // 15 s into a minute
    expect(limiter.hit('a', t)).toBe(0);
    expect(limiter.hit('a', t)).toBe(0);
    expect(limiter.hit('a', t)).toBe(45);
    expect(limiter.hit('b', t)).toBe(0);
    expect(limiter.hit('a', t + 44_500)).toBe(1);
    expect(limiter.hit('a', t + 45_000)).toBe(0);
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and groups IPv6 by /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0DB8:0000:0001:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
