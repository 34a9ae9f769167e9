import { API_PATHS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/errors';
import { startTestServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('liveness and readiness', () => {
  it('live is ok without asking anything, even with a token that is not valid', async () => {
    const r = await s.req('GET', API_PATHS.healthLive, { token: 'not-a-token' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
  });

  it('ready is ok while the database answers; /api/health stays as it was', async () => {
    const r = await s.get(API_PATHS.healthReady);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect((await s.get(API_PATHS.health)).body).toEqual({ status: 'ok' });
  });
});

describe('which errors mean the database is away', () => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it.each([
    ['a refused connection', coded('ECONNREFUSED')],
    ['a reset', coded('ECONNRESET')],
    ['admin_shutdown', coded('57P01', 'terminating connection due to administrator command')],
    ['cannot_connect_now', coded('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', coded('08006')],
    ['a statement timeout', coded('57014', 'canceling statement due to statement timeout')],
    ['SQLite waiting too long for a lock', coded('SQLITE_BUSY_SNAPSHOT')],
    ['the pool timing out', new Error('timeout exceeded when trying to connect')],
    ['a connection ending under a query', new Error('Connection terminated unexpectedly')],
    ['a client-side query timeout', new Error('Query read timeout')],
    ['every address refused', new AggregateError([coded('ECONNREFUSED')], 'connect failed')],
    ['a wrapped one', new Error('query failed', { cause: coded('57P01') })],
  ])('%s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', coded('42601', 'syntax error')],
    ['a unique violation', coded('23505')],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('not %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
