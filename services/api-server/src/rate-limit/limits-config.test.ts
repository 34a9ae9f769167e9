import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

describe('rate limits', () => {
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
