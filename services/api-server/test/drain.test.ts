// SIGTERM drains (docs/decisions/0028-process-lifecycle.md), shown on a real process: requests in flight
// finish with 200, readiness turns 503 at once, new connections are refused, and the process exits 0. A
// repeated signal is the same stop within STOP_REPEAT_WINDOW_MS, and "now" after it. Each step waits for what
// the process does (an answer, a line it prints, its exit), never for a number of milliseconds.
import http from 'node:http';
import net from 'node:net';
import { SAME_STOP_MS, stopSignalHandler } from '@app/http-lifecycle';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config';
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

/** node:http's interim answer to `Expect: 100-continue`, before the login's own. */
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/**
 * A login whose body arrives in two parts: its headers and half the body now, the rest when `finish` is
 * called. Until then it is a request in flight that no timing can finish early. It asks `Expect:
 * 100-continue`, so node:http answers `100 Continue` the moment it has parsed the headers and hands the
 * request on: `inFlight` resolves then, and the test knows the request is in without waiting a while.
 */
function slowLogin(port: number, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  let headersIn = () => {};
  const inFlight = new Promise<void>((resolve) => {
    headersIn = resolve;
  });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    answer += chunk;
    if (answer.startsWith(CONTINUE)) headersIn();
  });
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, half)}`,
  );
  return { inFlight, finish: () => socket.write(body.slice(half)), closed };
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
    await login.inFlight;
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
    expect(loginAnswer.slice(CONTINUE.length)).toMatch(/^HTTP\/1\.1 200 /);
    expect(loginAnswer).toContain('"token"');
    expect((await Promise.all(reads)).map((r) => r.status)).toEqual(Array(20).fill(200));

    expect(await server.exited).toEqual({ code: 0, signal: null });
    const drained = server.lines.find((line) => line.msg === 'API drained');
    expect(drained).toMatchObject({ forced: false });
    probe.destroy();
    readers.destroy();
  }, 40_000);

  it('closes what is still open at DRAIN_TIMEOUT_MS and still exits 0', async () => {
    server = await startChildServer({ ...databaseEnv(), DRAIN_TIMEOUT_MS: '300' });
    const stuck = slowLogin(server.port, JSON.stringify({ username: 'nobody', password: 'x' }));
    await stuck.inFlight;
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines.find((line) => line.msg === 'API drained')).toMatchObject({ forced: true });
    expect(await stuck.closed).toBe(CONTINUE);
  }, 40_000);

  it('a repeated signal within STOP_REPEAT_WINDOW_MS is the same stop; one after it exits 1 at once', async () => {
    // A window the whole test fits in, so the repeat is inside it whatever the machine's speed: the process
    // says it ignored the repeat, and the drain goes on to its end (exit 0 once the login is answered).
    server = await startChildServer({
      ...databaseEnv(),
      DRAIN_TIMEOUT_MS: '20000',
      STOP_REPEAT_WINDOW_MS: '60000',
    });
    const finished = slowLogin(server.port, JSON.stringify({ username: 'nobody', password: 'x' }));
    await finished.inFlight;
    server.child.kill('SIGTERM');
    await server.waitForLine((line) => line.msg === 'API draining');
    // Ctrl+C reaches a child from the terminal and from its parent: one stop, not two.
    server.child.kill('SIGINT');
    expect(await server.waitForLine((line) => line.msg === 'API signal repeated, ignored')).toMatchObject({
      signal: 'SIGINT',
      windowMs: 60_000,
    });
    expect(server.child.exitCode).toBeNull();
    finished.finish();
    expect((await finished.closed).slice(CONTINUE.length)).toMatch(/^HTTP\/1\.1 401 /);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines.find((line) => line.msg === 'API drained')).toMatchObject({ forced: false });
    expect(server.lines.some((line) => line.msg === 'API stopping at once')).toBe(false);

    // A window of 0: every repeat comes after it, so the second signal is "now" while a request is held.
    server = await startChildServer({
      ...databaseEnv(),
      DRAIN_TIMEOUT_MS: '20000',
      STOP_REPEAT_WINDOW_MS: '0',
    });
    const held = slowLogin(server.port, JSON.stringify({ username: 'nobody', password: 'x' }));
    await held.inFlight;
    server.child.kill('SIGTERM');
    await server.waitForLine((line) => line.msg === 'API draining');
    server.child.kill('SIGINT');
    expect((await server.exited).code).toBe(1);
    expect(server.lines.find((line) => line.msg === 'API stopping at once')).toMatchObject({
      signal: 'SIGINT',
    });
    await held.closed;
  }, 60_000);
});

describe('the stop signals’ window, on a fake clock', () => {
  it('the first signal drains; a repeat within 0.5 s is told and ignored; one at 0.5 s or later is "now"', () => {
    expect(DEFAULT_CONFIG.stopRepeatWindowMs).toBe(SAME_STOP_MS);
    expect(SAME_STOP_MS).toBe(500);
    let clock = 1000;
    const calls: string[] = [];
    const handle = stopSignalHandler(
      (signal) => calls.push(`drain ${signal}`),
      (signal) => calls.push(`now ${signal}`),
      { clock: () => clock, repeated: (signal, afterMs) => calls.push(`repeated ${signal} ${afterMs}`) },
    );
    handle('SIGTERM');
    clock += 499;
    handle('SIGINT');
    clock += 1;
    handle('SIGINT');
    expect(calls).toEqual(['drain SIGTERM', 'repeated SIGINT 499', 'now SIGINT']);
  });
});
