import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInput, startTestServer, type TestServer } from './helpers';

/**
 * Compression happens on the Node response (src/http-compression.ts), so these go over real HTTP with
 * node:http, which, unlike fetch, hands back the bytes as sent.
 */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const req = http.request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

/** A list answer over 1 KB: a few posts with long summaries. */
async function somePosts(server: TestServer) {
  const author = await server.user([], 'lister');
  for (let i = 0; i < 4; i++) {
    const summary = `Summary ${i}: ${'supplier risk and liquidity '.repeat(8)}`.slice(0, 280);
    const res = await server.post(
      '/api/posts',
      postInput({ title: `Listed post ${i}`, summary }),
      author.token,
    );
    expect(res.status).toBe(201);
  }
}

let api: TestServer;
let postUrl: string;
let content: string;

beforeAll(async () => {
  api = await startTestServer({ listCacheSize: 0 });
  const author = await api.user([], 'zipper');
  content = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} about supplier risk.`).join('\n\n');
  const created = await api.post(
    '/api/posts',
    postInput({ title: 'A long public post', content }),
    author.token,
  );
  expect(created.status).toBe(201);
  postUrl = `${api.url}/api/posts/${created.body.id}`;
  await somePosts(api);
});
afterAll(() => api.close());

describe('compression of JSON answers', () => {
  it('sends brotli to a client that accepts it, with a Content-Length of the compressed bytes', async () => {
    const res = await raw(postUrl, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(res.body.byteLength);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(brotliDecompressSync(res.body).toString('utf8')).content).toBe(content);
    expect(res.body.byteLength).toBeLessThan(content.length / 2);
  });

  it('sends gzip when that is all the client accepts, and honours q=0', async () => {
    const gz = await raw(postUrl, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8')).content).toBe(content);
    const refused = await raw(postUrl, { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    const none = await raw(postUrl, { 'Accept-Encoding': 'identity' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(none.body.toString('utf8')).content).toBe(content);
  });

  it('sends plain JSON without Accept-Encoding, and answers under 1 KB plain either way', async () => {
    const plain = await raw(postUrl);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.body.byteLength);
    expect(JSON.parse(plain.body.toString('utf8')).content).toBe(content);
    const small = await raw(`${api.url}/api/health`, { 'Accept-Encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ status: 'ok' });
    expect(small.headers.vary).toMatch(/accept-encoding/i);
  });

  it('compresses error answers and lists too, and a HEAD request gets headers only', async () => {
    const list = await raw(`${api.url}/api/posts?limit=50`, { 'Accept-Encoding': 'br' });
    expect(list.headers['content-encoding']).toBe('br');
    expect(Array.isArray(JSON.parse(brotliDecompressSync(list.body).toString('utf8')))).toBe(true);
    const head = await raw(postUrl, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-encoding']).toBeUndefined();
  });
});

describe('compression with the list cache on', () => {
  it('sends the cached gzip bytes as they are, never compressed twice', async () => {
    const cached = await startTestServer({ listCacheSize: 100 });
    try {
      await somePosts(cached);
      const first = await raw(`${cached.url}/api/posts?limit=50`, { 'Accept-Encoding': 'gzip' });
      const again = await raw(`${cached.url}/api/posts?limit=50`, { 'Accept-Encoding': 'gzip' });
      for (const res of [first, again]) {
        expect(res.headers['content-encoding']).toBe('gzip');
        expect(Array.isArray(JSON.parse(gunzipSync(res.body).toString('utf8')))).toBe(true);
      }
    } finally {
      await cached.close();
    }
  });
});
