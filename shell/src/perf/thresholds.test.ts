import { describe, expect, it } from 'vitest';
import { PERF_THRESHOLDS, rate } from './thresholds';

describe('performance thresholds (SPEC §9)', () => {
  it('rates load time', () => {
    expect(rate(999, PERF_THRESHOLDS.loadMs)).toBe('good');
    expect(rate(1000, PERF_THRESHOLDS.loadMs)).toBe('fair');
    expect(rate(2999, PERF_THRESHOLDS.loadMs)).toBe('fair');
    expect(rate(3000, PERF_THRESHOLDS.loadMs)).toBe('poor');
  });
  it('rates render time and memory', () => {
    expect(rate(15, PERF_THRESHOLDS.renderMs)).toBe('good');
    expect(rate(49, PERF_THRESHOLDS.renderMs)).toBe('fair');
    expect(rate(50, PERF_THRESHOLDS.renderMs)).toBe('poor');
    expect(rate(49, PERF_THRESHOLDS.memoryMb)).toBe('good');
    expect(rate(99, PERF_THRESHOLDS.memoryMb)).toBe('fair');
    expect(rate(100, PERF_THRESHOLDS.memoryMb)).toBe('poor');
  });
});
