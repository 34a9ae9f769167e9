// SIGTERM drains (docs/decisions/0028-process-lifecycle.md), shown on a real process: requests in flight
// finish with 200, readiness turns 503 at once, new connections are refused, and the process exits 0.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChildServer, request, startChildServer } from './child-server';
import { registration, tempDatabase } from './helpers';

let server: ChildServer | null = null;
afterEach(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  server = null;
});

function databaseEnv(): Record<string, string> {
  const db = tempDatabase();
  return db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DB_PATH: db.dbPath };
}

/**
 * A login whose body arrives in two parts: its headers and half the body now, the rest when `finish` is
 * called. Until then it is a request in flight that no timing can finish early.
 */
function slowLogin(port: number, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    answer += chunk;
  });
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  return { finish: () => socket.write(body.slice(half)), closed };
}

describe('draining on SIGTERM', () => {
  it('finishes what is in flight, answers ready 503, refuses new connections and exits 0', async () => {
    server = await startChildServer({ ...databaseEnv(), DRAIN_TIMEOUT_MS: '8000', LIST_CACHE_SIZE: '0' });
    const { url, port, child } = server;
    const account = registration();
    expect((await request(`${url}/api/register`, { method: 'POST', body: account })).status).toBe(201);

    // Kept-alive sockets, open and idle before the signal: one for readiness, twenty for reads.
    const probe = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const readers = new http.Agent({ keepAlive: true, maxSockets: 20 });
    expect((await request(`${url}/api/health/ready`, { agent: probe })).status).toBe(200);
    await Promise.all(
      Array.from({ length: 20 }, () => request(`${url}/api/health/live`, { agent: readers })),
    );

    const login = slowLogin(port, JSON.stringify({ username: account.email, password: account.password }));
    // Wait until the login's headers are in: the server logs nothing before the answer, so ask it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reads = Array.from({ length: 20 }, () => request(`${url}/api/posts?limit=50`, { agent: readers }));
    child.kill('SIGTERM');
    await server.waitForLine((line) => line.msg === 'API draining');

    const ready = await request(`${url}/api/health/ready`, { agent: probe });
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBeDefined();
    expect(JSON.parse(ready.body).error).toEqual(expect.any(String));
    expect(ready.headers.connection).toBe('close');

    await expect(request(`${url}/api/health/live`, { agent: false })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });

    login.finish();
    const loginAnswer = await login.closed;
    expect(loginAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(loginAnswer).toContain('"token"');
    expect((await Promise.all(reads)).map((r) => r.status)).toEqual(Array(20).fill(200));

    expect(await server.exited).toEqual({ code: 0, signal: null });
    const drained = server.lines.find((line) => line.msg === 'API drained');
    expect(drained).toMatchObject({ forced: false });
    probe.destroy();
    readers.destroy();
  }, 40_000);

  it('closes what is still open at DRAIN_TIMEOUT_MS and still exits 0; a second signal exits at once', async () => {
    server = await startChildServer({ ...databaseEnv(), DRAIN_TIMEOUT_MS: '300' });
    const stuck = slowLogin(server.port, JSON.stringify({ username: 'nobody', password: 'x' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines.find((line) => line.msg === 'API drained')).toMatchObject({ forced: true });
    await stuck.closed;

    server = await startChildServer({ ...databaseEnv(), DRAIN_TIMEOUT_MS: '20000' });
    const held = slowLogin(server.port, JSON.stringify({ username: 'nobody', password: 'x' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    await server.waitForLine((line) => line.msg === 'API draining');
    // A repeat within 0.5 s is the same stop (Ctrl+C reaches a child from the terminal and its parent).
    server.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(server.child.exitCode).toBeNull();
    server.child.kill('SIGINT');
    expect((await server.exited).code).toBe(1);
    await held.closed;
  }, 60_000);
});
