import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { describe, expect, it, vi } from 'vitest';
import {
  command,
  deployInstall,
  deployToken,
  release,
  startDeployServer,
  withStable,
} from './deploy-fixtures';
import { type TestServer, twoInstancesPerTest } from './helpers';

/** Until the instance holds `n` feed requests (a long poll in place, or gone), instead of a fixed wait. */
const holding = (s: TestServer, n: number) =>
  vi.waitFor(() => expect(s.server.feedWaiting()).toBe(n), { timeout: 5000, interval: 5 });

/** Issue 33: several API instances on one database change and publish one deployment. */
const pairOnOneDatabase = twoInstancesPerTest();
const twoInstances = (deploy: Parameters<typeof deployInstall>[0] = {}) =>
  pairOnOneDatabase(deployInstall(deploy));

describe('two API instances on one database', () => {
  it('agree on the local token file', async () => {
    const [a, b] = await twoInstances();
    const local = await a.ctx.deployTokens.find('local');
    expect(local?.admin).toBe(true);
    const rows = await b.sql.all('SELECT name FROM deploy_tokens');
    expect(rows).toHaveLength(1);
  });

  it('racing the same change: exactly one wins, the other gets 412; one revision, one audit row (50 pairs)', async () => {
    const [a, b] = await twoInstances();
    const token = await deployToken(a, 'ops');
    let { revision } = await withStable(a, token, 'staging', 'mf-research');
    const canary = await release(a, 'mf-research');
    const started = await command(
      a,
      token,
      'staging',
      'mf-research',
      'start',
      { version: canary, percent: 1 },
      revision,
    );
    revision = started.body.revision;
    const auditBefore = Number(await a.sql.value('SELECT COUNT(*) FROM deploy_audit'));
    for (let i = 0; i < 50; i++) {
      const percent = (i % 99) + 2;
      const [x, y] = await Promise.all([
        command(a, token, 'staging', 'mf-research', 'set', { percent }, revision),
        command(b, token, 'staging', 'mf-research', 'set', { percent }, revision),
      ]);
      const statuses = [x.status, y.status].sort();
      expect(statuses, JSON.stringify([x.body, y.body])).toEqual([200, 412]);
      const lost = x.status === 412 ? x : y;
      expect(lost.body.revision).toBe(revision + 1);
      revision += 1;
    }
    const state = await b.get(DEPLOY_PATHS.environment('staging'), token);
    expect(state.body.revision).toBe(revision);
    expect(Number(await a.sql.value('SELECT COUNT(*) FROM deploy_audit'))).toBe(auditBefore + 50);
  });

  it('the feed answers at once, even for an environment never written', async () => {
    const [a] = await twoInstances();
    const started = performance.now();
    const res = await a.get(DEPLOY_PATHS.feed('production'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ environment: 'production', revision: 0, updatedAt: null });
    expect(res.body.manifest.remotes).toEqual({});
    expect(res.body.previews).toEqual({ revision: 0, links: [], overrides: [] });
    // The body changes with the deployment's revision and the previews': the ETag names both.
    expect(res.headers.get('etag')).toBe('"0.0"');
    expect(performance.now() - started).toBeLessThan(500);
    expect((await a.get(DEPLOY_PATHS.feed('nowhere'))).status).toBe(404);
    expect((await a.get(`${DEPLOY_PATHS.feed('staging')}?after=x`)).status).toBe(400);
  });

  it('a long poll on one instance is woken by a change through the other within a second', async () => {
    const [a, b] = await twoInstances({ feedTimeoutMs: 10_000 });
    const token = await deployToken(a, 'ops');
    const { revision } = await withStable(a, token, 'staging', 'mf-research');
    const waiting = a.get(`${DEPLOY_PATHS.feed('staging')}?after=${revision}`);
    await holding(a, 1);
    const canary = await release(b, 'mf-research');
    const changed = performance.now();
    const write = await command(
      b,
      token,
      'staging',
      'mf-research',
      'start',
      { version: canary, percent: 5 },
      revision,
    );
    expect(write.status).toBe(200);
    const res = await waiting;
    expect(performance.now() - changed).toBeLessThan(1000);
    expect(res.status).toBe(200);
    expect(res.body.revision).toBe(revision + 1);
    expect(res.body.manifest.remotes['mf-research'].canary.version).toBe(canary);
  });

  it('a long poll is woken at once by a change through its own instance', async () => {
    const [a] = await twoInstances({ feedTimeoutMs: 10_000 });
    const token = await deployToken(a, 'ops');
    const waiting = a.get(`${DEPLOY_PATHS.feed('staging')}?after=0`);
    await holding(a, 1);
    const changed = performance.now();
    const { revision } = await withStable(a, token, 'staging', 'mf-research');
    const res = await waiting;
    expect(performance.now() - changed).toBeLessThan(300);
    expect(res.body.revision).toBe(revision);
  });

  it('a long poll without a change ends in a 204 at the timeout', async () => {
    const [a] = await twoInstances({ feedTimeoutMs: 300 });
    const started = performance.now();
    const res = await a.get(`${DEPLOY_PATHS.feed('staging')}?after=0`);
    expect(res.status).toBe(204);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('too many waiters: 503 with Retry-After', async () => {
    const [a] = await twoInstances({ feedTimeoutMs: 1000, feedMaxWaiters: 2 });
    const first = [
      a.get(`${DEPLOY_PATHS.feed('staging')}?after=0`),
      a.get(`${DEPLOY_PATHS.feed('staging')}?after=0`),
    ];
    await holding(a, 2);
    const third = await a.get(`${DEPLOY_PATHS.feed('staging')}?after=0`);
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('1');
    expect((await Promise.all(first)).map((r) => r.status)).toEqual([204, 204]);
  });

  it('a client that goes away frees its place among the waiters', async () => {
    const [a] = await twoInstances({ feedTimeoutMs: 500, feedMaxWaiters: 1 });
    const gone = new AbortController();
    const first = fetch(`${a.url}${DEPLOY_PATHS.feed('staging')}?after=0`, { signal: gone.signal }).catch(
      () => null,
    );
    await holding(a, 1);
    gone.abort();
    await first;
    await holding(a, 0);
    expect((await a.get(`${DEPLOY_PATHS.feed('staging')}?after=0`)).status).toBe(204);
  });

  it('a draining instance ends its waiting feed requests promptly (SIGTERM does not wait 25 s)', async () => {
    const s = await startDeployServer(deployInstall({ feedTimeoutMs: 20_000 }));
    const waiting = s.get(`${DEPLOY_PATHS.feed('staging')}?after=0`);
    await holding(s, 1);
    const started = performance.now();
    const drained = await s.server.drain(5000);
    const res = await waiting;
    expect(res.status).toBe(204);
    expect(drained.forced).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
