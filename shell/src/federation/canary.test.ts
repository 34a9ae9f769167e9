import { describe, expect, it } from 'vitest';
import { pickRemoteUrl, rolloutBucket } from './canary';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = { ...initial };
  return {
    getItem: (k: string) => data[k] ?? null,
    setItem: (k: string, v: string) => {
      data[k] = v;
    },
  };
}

describe('canary rollout', () => {
  it('keeps the same bucket for the same browser', () => {
    const storage = memoryStorage();
    const first = rolloutBucket(storage);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(100);
    expect(rolloutBucket(storage)).toBe(first);
  });

  it('serves the canary only to buckets below its percent', () => {
    const remote = { url: 'http://stable/m.json', canary: { url: 'http://canary/m.json', percent: 20 } };
    expect(pickRemoteUrl(remote, 5)).toBe('http://canary/m.json');
    expect(pickRemoteUrl(remote, 19)).toBe('http://canary/m.json');
    expect(pickRemoteUrl(remote, 20)).toBe('http://stable/m.json');
    expect(pickRemoteUrl({ url: 'http://stable/m.json' }, 0)).toBe('http://stable/m.json');
  });

  it('replaces a corrupt stored bucket', () => {
    const storage = memoryStorage({ 'rollout-bucket': 'abc' });
    const bucket = rolloutBucket(storage);
    expect(Number.isInteger(bucket)).toBe(true);
    expect(storage.getItem('rollout-bucket')).toBe(String(bucket));
  });
});
