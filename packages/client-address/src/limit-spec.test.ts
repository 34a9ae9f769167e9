import { describe, expect, it } from 'vitest';
import { formatLimitSpec, parseLimitSpec } from './limit-spec';

describe('limit specs', () => {
  it('read <count>/<window> with ms, s, m, h, d', () => {
    expect(parseLimitSpec('X', '10/1h')).toEqual({ limit: 10, windowMs: 3_600_000 });
    expect(parseLimitSpec('X', '30/m')).toEqual({ limit: 30, windowMs: 60_000 });
    expect(parseLimitSpec('X', ' 5 / 500ms ')).toEqual({ limit: 5, windowMs: 500 });
    expect(formatLimitSpec({ limit: 20, windowMs: 3_600_000 })).toBe('20/1h');
    expect(() => parseLimitSpec('RATE_LIMIT_LOGIN', 'lots')).toThrow(/RATE_LIMIT_LOGIN.*<count>\/<window>/);
  });
});
