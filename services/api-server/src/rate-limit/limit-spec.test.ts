import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { formatLimitSpec, parseLimitSpec } from './limit-spec';

describe('limit specs', () => {
  it('read <count>/<window> with ms, s, m, h, d', () => {
    expect(parseLimitSpec('X', '10/1h')).toEqual({ limit: 10, windowMs: 3_600_000 });
    expect(parseLimitSpec('X', '30/m')).toEqual({ limit: 30, windowMs: 60_000 });
    expect(parseLimitSpec('X', ' 5 / 500ms ')).toEqual({ limit: 5, windowMs: 500 });
    expect(formatLimitSpec({ limit: 20, windowMs: 3_600_000 })).toBe('20/1h');
    expect(() => parseLimitSpec('RATE_LIMIT_LOGIN', 'lots')).toThrow(/RATE_LIMIT_LOGIN.*<count>\/<window>/);
  });

  it('are configured by environment and validated with the rest', () => {
    const c = loadConfig({ RATE_LIMIT_REGISTER: '3/10m', TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' });
    expect(c.rateLimits.limits.register).toEqual({ limit: 3, windowMs: 600_000 });
    expect(c.rateLimits.limits.login).toEqual({ limit: 30, windowMs: 60_000 });
    expect(c.trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits.enabled).toBe(false);
    expect(() => loadConfig({ RATE_LIMIT_COMMENT: '0/1m' })).toThrow(/rateLimits\.limits\.comment\.limit/);
    expect(() => loadConfig({ TRUSTED_PROXIES: 'nginx' })).toThrow(/trustedProxies.*IP address or CIDR/);
    expect(() => loadConfig({ ASSESSMENT_REPEAT_WINDOW_MS: '-1' })).toThrow(/assessmentRepeatMs/);
  });
});
