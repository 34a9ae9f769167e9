import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import type { Config } from '../src/config';
import { createContext } from '../src/context';
import { BUSY_MESSAGE } from '../src/expensive-limit';
import { postInput, testConfig } from './helpers';

/** The app in-process (app.request): no HTTP client in between that would add or undo compression. */
const opened: (() => void)[] = [];
afterEach(() => {
  for (const close of opened.splice(0)) close();
});

function appWith(over: Partial<Config> = {}) {
  const ctx = createContext(testConfig(over));
  opened.push(() => ctx.close());
  return { app: createApp(ctx), ctx };
}

describe('expensive endpoints under a saturated limit', () => {
  it('answers 503 with Retry-After and an error in words when the one slot is taken and no wait is allowed', async () => {
    const { app } = appWith({ expensive: { concurrency: 1, maxWaitMs: 0, retryAfterSeconds: 3 } });
    const [first, second, health] = await Promise.all([
      app.request('/api/posts/search?q=risk'),
      app.request('/api/posts/tags'),
      app.request('/api/health'),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('3');
    expect(await second.json()).toEqual({ error: BUSY_MESSAGE });
    // Cheap endpoints are never limited.
    expect(health.status).toBe(200);
    // Once the slot is free again the same request is served.
    expect((await app.request('/api/posts/tags')).status).toBe(200);
  });

  it('serves a waiting request when the slot frees within the bound', async () => {
    const { app } = appWith({ expensive: { concurrency: 1, maxWaitMs: 5000, retryAfterSeconds: 1 } });
    const answers = await Promise.all(
      ['/api/posts/search?q=a', '/api/posts/categories', '/api/report'].map((p) => app.request(p)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});

describe('compression of JSON answers', () => {
  async function bigPost() {
    const { app, ctx } = appWith();
    const { id } = await ctx.accounts.register(
      {
        username: 'zipper',
        password: 'Secret123x',
        name: { first: 'Zip', last: 'Per' },
        email: 'zipper@example.com',
        address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
      },
      { active: true },
    );
    const content = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} about supplier risk.`).join('\n\n');
    const post = ctx.posts.create(id, postInput({ title: 'A long public post', content }) as never);
    return { app, path: `/api/posts/${post.id}`, content };
  }

  it('gzips an answer over 1 KB when the client accepts gzip', async () => {
    const { app, path, content } = await bigPost();
    const res = await app.request(path, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    const zipped = Buffer.from(await res.arrayBuffer());
    const body = JSON.parse(gunzipSync(zipped).toString('utf8'));
    expect(body.content).toBe(content);
    expect(zipped.byteLength).toBeLessThan(content.length);
  });

  it('sends plain JSON without Accept-Encoding, and small answers plain either way', async () => {
    const { app, path, content } = await bigPost();
    const plain = await app.request(path);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(((await plain.json()) as { content: string }).content).toBe(content);
    const small = await app.request('/api/health', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toEqual({ status: 'ok' });
  });
});
