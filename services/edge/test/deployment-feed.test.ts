// The edge's deployment comes from the API's feed (deployment-feed.ts): a long poll, the last good manifest
// kept through outages and bad manifests, back-off while the API is away, readiness until the first one.
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { deploymentFeed } from '../src/deployment-feed';
import { serveApp } from '../src/serve';
import { feedServer } from './feed-server';
import { edgeFixture, planOf, runtimeConfig } from './fixture';

const f = edgeFixture('edge-feed');
const V1 = '1.0.0-aaaaaaaaaa';
const V2 = '1.0.1-bbbbbbbbbb';
afterAll(() => f.close());

const manifestWith = (stable: string) => ({
  schemaVersion: 1,
  environment: 'production',
  revision: 0,
  updatedAt: new Date().toISOString(),
  remotes: { 'mf-public-pages': { stable, previous: [] } },
});
/** Until `check` passes (a condition, not a length of time); 5 s on a busy machine before it fails. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 5 });

describe('the feed loop', () => {
  it('asks without `after` first, then after each revision it read, and has a change at once', async () => {
    const api = feedServer();
    const url = await api.url();
    const feed = deploymentFeed({ apiUrl: () => url, environment: 'production' });
    try {
      await feed.waitFor(0);
      expect(feed.manifest()?.revision).toBe(0);
      api.publish(manifestWith(V1));
      const started = Date.now();
      await feed.waitFor(1);
      expect(Date.now() - started).toBeLessThan(200);
      expect(feed.manifest()?.remotes['mf-public-pages']?.stable).toBe(V1);
      expect(api.asked.slice(0, 2)).toEqual([null, 0]);
      await until(() => expect(api.asked.at(-1)).toBe(1));
      expect(feed.status()).toMatchObject({ environment: 'production', revision: 1, error: null });
    } finally {
      feed.stop();
      api.close();
    }
  });

  it('after a 204 (no change within the wait) asks again with the same revision', async () => {
    const api = feedServer({ holdMs: 50 });
    const url = await api.url();
    const feed = deploymentFeed({ apiUrl: () => url, environment: 'production' });
    try {
      await feed.waitFor(0);
      await until(() => expect(api.asked.slice(1).length).toBeGreaterThanOrEqual(2));
      expect(new Set(api.asked.slice(1))).toEqual(new Set([0]));
      expect(feed.status().error).toBeNull();
    } finally {
      feed.stop();
      api.close();
    }
  });

  it('keeps the last good manifest while the API is away, backs off, and catches up when it is back', async () => {
    const api = feedServer({ holdMs: 30 });
    const url = await api.url();
    const errors: string[] = [];
    const errorsAt: number[] = [];
    let recovered = 0;
    const feed = deploymentFeed({
      apiUrl: () => url,
      environment: 'production',
      minBackoffMs: 20,
      maxBackoffMs: 80,
      onError: (_kind, error) => {
        errors.push(String(error));
        errorsAt.push(performance.now());
      },
      onRecovered: () => {
        recovered += 1;
      },
    });
    try {
      api.publish(manifestWith(V1));
      await feed.waitFor(1);
      api.failing(503);
      await until(() => expect(errors.length).toBeGreaterThanOrEqual(4));
      expect(feed.manifest()?.remotes['mf-public-pages']?.stable).toBe(V1);
      expect(feed.status()).toMatchObject({ revision: 1, error: expect.stringContaining('503') });
      // Backed off: at least 20, 40, 80 ms between failures, not a request per millisecond. (Lower bounds
      // only: a busy machine makes the gaps longer, never shorter.)
      const gaps = errorsAt.slice(1, 4).map((at, i) => at - errorsAt[i]!);
      expect(gaps[0]).toBeGreaterThanOrEqual(19);
      expect(gaps[1]).toBeGreaterThanOrEqual(39);
      expect(gaps[2]).toBeGreaterThanOrEqual(79);
      api.publish(manifestWith(V2));
      api.failing(null);
      await feed.waitFor(2, 1000);
      expect(feed.manifest()?.remotes['mf-public-pages']?.stable).toBe(V2);
      expect(feed.status().error).toBeNull();
      expect(recovered).toBe(1);
    } finally {
      feed.stop();
      api.close();
    }
  });

  it('says so when no API answers at all, and an unknown environment is an error too', async () => {
    const nobody = feedServer();
    const url = await nobody.url();
    nobody.close();
    const down = deploymentFeed({ apiUrl: () => url, environment: 'production', minBackoffMs: 20 });
    const api = feedServer();
    const apiUrl = await api.url();
    const unknown = deploymentFeed({ apiUrl: () => apiUrl, environment: 'nowhere', minBackoffMs: 20 });
    const none = deploymentFeed({ apiUrl: () => null, environment: 'production', minBackoffMs: 20 });
    try {
      await until(() => {
        expect(down.status().failures).toBeGreaterThan(0);
        expect(unknown.status().error).toContain('404');
        expect(none.status().error).toContain('API_URL');
      });
      expect(down.hasManifest()).toBe(false);
    } finally {
      for (const feed of [down, unknown, none]) feed.stop();
      api.close();
    }
  });

  it('stop() aborts the poll in flight', async () => {
    const api = feedServer();
    const url = await api.url();
    const feed = deploymentFeed({ apiUrl: () => url, environment: 'production' });
    await feed.waitFor(0);
    await until(() => expect(api.held()).toBe(1));
    feed.stop();
    // The held request is gone on the server's side too (its socket closed), and no other follows.
    await until(() => expect(api.held()).toBe(0));
    expect(api.asked).toEqual([null, 0]);
    api.close();
  });
});

describe('/_edge/ready and /deployment.json', () => {
  it('ready is 503 before the first manifest; /deployment.json is the feed copy, no-cache', async () => {
    f.release('mf-public-pages', V1, {});
    const api = feedServer();
    api.failing(503);
    const url = await api.url();
    // The back-off capped low: the longer a busy machine takes to get here, the more failures, and with the
    // default cap (5 s) the feed could still be waiting out one when the manifest is published.
    const feed = deploymentFeed({
      apiUrl: () => url,
      environment: 'production',
      minBackoffMs: 20,
      maxBackoffMs: 40,
    });
    const server = await serveApp({
      name: 'shell',
      dir: f.dist,
      port: 0,
      host: '127.0.0.1',
      spa: true,
      runtimeConfig: runtimeConfig(),
      releases: { store: f.store },
      feed,
    });
    const edge = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const notYet = await fetch(`${edge}/_edge/ready`);
      expect(notYet.status).toBe(503);
      expect(((await notYet.json()) as { error: string }).error).toContain('No deployment from the API yet');
      expect((await fetch(`${edge}/deployment.json`)).status).toBe(404);
      api.publish(manifestWith(V1));
      api.failing(null);
      await feed.waitFor(1, 2000);
      expect((await fetch(`${edge}/_edge/ready`)).status).toBe(200);
      const served = await fetch(`${edge}/deployment.json`);
      expect(served.headers.get('cache-control')).toBe('no-cache');
      expect(await served.json()).toMatchObject({
        revision: 1,
        remotes: { 'mf-public-pages': { stable: V1 } },
      });
      expect(planOf(await (await fetch(`${edge}/`)).text()).plan.mf_public_pages.version).toBe(V1);
      const status = (await (await fetch(`${edge}/_edge/status`)).json()) as {
        feed: { lastContactAt: string | null };
      };
      expect(status.feed).toMatchObject({ environment: 'production', revision: 1, error: null });
      expect(status.feed.lastContactAt).toEqual(expect.any(String));
    } finally {
      feed.stop();
      server.close();
      api.close();
    }
  });
});
