import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from './helpers';

let s: TestServer;
let u: TestUser;
beforeAll(async () => {
  s = await startTestServer({ logLevel: 'silent' });
  u = await s.user();
});
afterAll(() => s.close());

describe('error answers are JSON 4xx', () => {
  it('malformed JSON is 400', async () => {
    for (const path of ['/api/login', '/api/register', '/api/market-assessment']) {
      const r = await s.req('POST', path, { rawBody: '{"username": ' });
      expect(r.status, path).toBe(400);
      expect(r.body).toEqual({ error: 'Malformed JSON body' });
    }
    const r = await s.req('POST', '/api/posts', { rawBody: 'not json', token: u.token });
    expect(r.status).toBe(400);
  });

  it('wrong types and missing bodies are 400 with an error text', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/api/login', { username: 5, password: [] }],
      ['POST', '/api/login', null],
      ['POST', '/api/login', 'string'],
      ['POST', '/api/register', []],
      ['POST', '/api/posts', { title: { a: 1 }, content: 'x' }],
      ['PUT', '/api/preferences', { emailOptIn: 1 }],
      ['PUT', '/api/profile', { name: 'x' }],
      ['POST', '/api/market-assessment', { companySize: 'huge' }],
    ];
    for (const [method, path, body] of cases) {
      const r = await s.req(method, path, { body, token: u.token });
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    const empty = await s.req('POST', '/api/login', {});
    expect(empty.status).toBe(400);
  });

  it('a body over 1 MB is 413', async () => {
    const big = JSON.stringify({ username: 'x'.repeat(1_100_000), password: 'y' });
    const r = await s.req('POST', '/api/login', { rawBody: big });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: 'Request body too large' });
  });

  it('unknown routes and methods are 404 JSON', async () => {
    const r = await s.get('/api/does-not-exist');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Not found' });
    expect(r.headers.get('content-type')).toContain('application/json');
    const m = await s.req('PATCH', '/api/login');
    expect(m.status).toBe(404);
    expect(m.body).toEqual({ error: 'Not found' });
    expect((await s.get('/')).status).toBe(404);
  });

  it('an unexpected failure is 500 without details', async () => {
    const broken = await startTestServer();
    await broken.sql.close();
    const r = await broken.get('/api/dashboards');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: 'Internal server error' });
    await broken.close();
  });
});

describe('headers', () => {
  it('CORS only for configured origins, with Authorization and Idempotency-Key allowed', async () => {
    const ok = await s.req('OPTIONS', '/api/posts', {
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,idempotency-key,content-type',
      },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const allowed = ok.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
    expect(allowed).toContain('authorization');
    expect(allowed).toContain('idempotency-key');
    const remote = await s.req('GET', '/api/health', { headers: { origin: 'http://127.0.0.1:3002' } });
    expect(remote.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3002');
    const evil = await s.req('GET', '/api/health', { headers: { origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sets security headers', async () => {
    const r = await s.get('/api/health');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBeTruthy();
    expect(r.headers.get('strict-transport-security')).toBeTruthy();
  });
});
