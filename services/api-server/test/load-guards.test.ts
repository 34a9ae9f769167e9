import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import type { Config } from '../src/config';
import { createContext } from '../src/context';
import { BUSY_MESSAGE } from '../src/expensive-limit';
import { testConfig } from './helpers';

/** The app in-process (app.request). */
const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function appWith(over: Partial<Config> = {}) {
  const ctx = await createContext(testConfig(over));
  opened.push(() => ctx.close());
  return { app: createApp(ctx), ctx };
}

describe('expensive endpoints under a saturated limit', () => {
  it('answers 503 with Retry-After and an error in words when the one slot is taken and no wait is allowed', async () => {
    const { app } = await appWith({ expensive: { concurrency: 1, maxWaitMs: 0, retryAfterSeconds: 3 } });
    const [first, second, health, tags] = await Promise.all([
      app.request('/api/posts/search?q=risk'),
      app.request('/api/posts/search?q=supplier'),
      app.request('/api/health'),
      app.request('/api/posts/tags'),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('3');
    expect(await second.json()).toEqual({ error: BUSY_MESSAGE });
    // Cheap endpoints are never limited, the counts (lookups since migration 7) included.
    expect(health.status).toBe(200);
    expect(tags.status).toBe(200);
    // Once the slot is free again the same request is served.
    expect((await app.request('/api/posts/search?q=supplier')).status).toBe(200);
  });

  it('serves a waiting request when the slot frees within the bound', async () => {
    const { app } = await appWith({ expensive: { concurrency: 1, maxWaitMs: 5000, retryAfterSeconds: 1 } });
    const answers = await Promise.all(
      ['/api/posts/search?q=a', '/api/posts/search?q=b', '/api/posts/search?q=c'].map((p) => app.request(p)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
