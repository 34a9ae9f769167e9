import { API_PATHS } from '@app/contracts';
import { DEFAULT_GATE, type VisitorFigures } from '@app/rollout';
import { renderReportKey, signRenderReport } from '@app/rollout/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootstrap, setPercent, startCanary } from './commands';
import type { RolloutContext } from './context';
import { apiHealthSource, type HealthSource } from './health';
import { release } from './release';
import { runCli, startTestApi, type TestApi } from './test-support';
import { watch } from './watch';

/**
 * The gate's loop against a real API (moves are the `watch` verb with If-Match), with the visitors'
 * figures from a fake HealthSource. Each test has its own environment, so none sees another's changes.
 */
const ENVIRONMENTS = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8'];
let api: TestApi;
let stable: string;
let canary: string;
beforeAll(async () => {
  api = await startTestApi({ DEPLOY_ENVIRONMENTS: ENVIRONMENTS.join(','), DEPLOY_ENV: 'w1' });
  const client = api.context({ environment: 'w1' }).client;
  const up = async (content: string) =>
    (
      await release(
        { remote: 'mf-research', root: api.dir, dist: api.dist({ at: content, content }) },
        client,
      )
    ).info.version;
  stable = await up('stable');
  canary = await up('canary');
});
afterAll(() => api?.stop());

const fakeHealth = (visitors: HealthSource['visitors']): HealthSource => ({ visitors });

/** `n` visitors of one page view each; `errors` of them saw a failure; Web Vitals as given per visitor. */
function people(n: number, o: { errors?: number; inp?: (i: number) => number } = {}): VisitorFigures[] {
  return Array.from({ length: n }, (_, i) => ({
    views: 1,
    errorViews: i < (o.errors ?? 0) ? 1 : 0,
    lcp: null,
    inp: o.inp ? o.inp(i) : null,
    cls: null,
  }));
}

let envIndex = 0;
let ctx: RolloutContext;
let logs: string[];
let clock: number;
/** Each sleep moves the fake clock, as real time would. */
const sleep = async () => {
  clock += 30_000;
};
beforeEach(async () => {
  logs = [];
  clock = Date.parse('2026-11-22T10:00:00.000Z');
  ctx = api.context({ environment: ENVIRONMENTS[envIndex++], logs, now: () => new Date(clock) });
  await bootstrap(ctx, { remote: 'mf-research', version: stable });
  await startCanary(ctx, { remote: 'mf-research', version: canary, percent: 1 });
});

const gate = { ...DEFAULT_GATE, minVisitors: 10 };
const watchEntries = async () =>
  (await ctx.client.history('mf-research')).entries.filter((e) => e.action.startsWith('watch-')).reverse();

describe('rollout watch over the deploy API', () => {
  it('advances a healthy canary 1 → 10 → 50 → 100 %, then promotes it', async () => {
    const health = fakeHealth(() => people(40, { inp: (i) => 100 + i }));
    const result = await watch(ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, sleep);
    expect(result).toEqual({ outcome: 'promoted', version: canary });
    const state = await ctx.client.state();
    expect(state.manifest.remotes['mf-research']).toMatchObject({ stable: canary, previous: [stable] });
    expect((await watchEntries()).map((e) => [e.action, e.to])).toEqual([
      ['watch-advance', `stable ${stable} · canary ${canary} at 10 %`],
      ['watch-advance', `stable ${stable} · canary ${canary} at 50 %`],
      ['watch-advance', `stable ${stable} · canary ${canary} at 100 %`],
      ['watch-promote', `stable ${canary}`],
    ]);
  });

  it('rolls a failing canary back with the rates as the reason', async () => {
    const health = fakeHealth((_r, version) =>
      version === canary ? people(12, { errors: 12 }) : people(200),
    );
    const result = await watch(ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, sleep);
    expect(result.outcome).toBe('rolled-back');
    const deployment = (await ctx.client.state()).manifest.remotes['mf-research'];
    expect(deployment?.stable).toBe(stable);
    expect(deployment?.canary).toBeUndefined();
    const [entry] = await watchEntries();
    expect(entry).toMatchObject({
      action: 'watch-rollback',
      from: `stable ${stable} · canary ${canary} at 1 %`,
      to: `stable ${stable}`,
      reason:
        'errors: canary 100.0 % of 12 visitors, stable 0.0 % of 200 visitors (allowed 2.0 %): worse beyond the margin at 99 % confidence',
    });
  });

  it('sends its move again when only another remote changed meanwhile (412), and carries on', async () => {
    const other = await release(
      { remote: 'mf-survey', root: api.dir, dist: api.dist({ remote: 'mf-survey', at: 'survey' }) },
      ctx.client,
    );
    let meddled = false;
    const health = fakeHealth(async () => {
      if (!meddled) {
        meddled = true;
        // Someone else's change, between the watch's read and its move.
        await bootstrap(api.context({ environment: ctx.environment }), {
          remote: 'mf-survey',
          version: other.info.version,
        });
      }
      return people(40);
    });
    const result = await watch(
      ctx,
      health,
      { remote: 'mf-research', gate, intervalMs: 0, steps: [1, 100] },
      sleep,
    );
    expect(result.outcome).toBe('promoted');
    expect(logs.some((line) => line.includes('another remote changed'))).toBe(true);
    expect((await ctx.client.state()).manifest.remotes['mf-survey']?.stable).toBe(other.info.version);
  });

  it('stops when someone else changes the canary meanwhile, without overwriting them', async () => {
    const health = fakeHealth(() => people(1));
    const meddle = async () => {
      await setPercent(api.context({ environment: ctx.environment }), { remote: 'mf-research', percent: 7 });
    };
    await expect(watch(ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, meddle)).rejects.toThrow(
      `stopped watching mf-research: the canary ${canary} at 1 % was changed by someone else; it is now ${canary} at 7 %`,
    );
    expect((await ctx.client.state()).manifest.remotes['mf-research']?.canary?.percent).toBe(7);
    expect(await watchEntries()).toEqual([]);
  });

  it('stops after --max-wait when a step never gets enough visitors, audited as watch-stop', async () => {
    const health = fakeHealth(() => people(1));
    const result = await watch(
      ctx,
      health,
      { remote: 'mf-research', gate, intervalMs: 0, maxWaitMs: 60_000 },
      sleep,
    );
    expect(result).toMatchObject({ outcome: 'stopped' });
    const [entry] = await watchEntries();
    expect(entry?.action).toBe('watch-stop');
    expect(entry?.reason).toMatch(
      /^no decision within 60 s at 1 %: inconclusive: not enough visitors in the window \(1 of 10 canary visitors this step\)/,
    );
    expect((await ctx.client.state()).manifest.remotes['mf-research']?.canary?.percent).toBe(1);
  });

  it("rolls back a canary whose server renders fail on the edges' figures alone, with no browser report", async () => {
    const { manifest } = await ctx.client.state();
    const step = manifest.remotes['mf-research']?.canary?.stepStartedAt as string;
    const minute = Math.floor(Date.parse(step) / 60_000);
    // What an edge sends (services/edge render-reporter.ts): signed with the secret the API shares.
    const body = JSON.stringify({
      id: `batch-${ctx.environment}-0123456789`,
      environment: ctx.environment,
      entries: [
        {
          remote: 'mf-research',
          version: canary,
          track: 'canary',
          minute,
          renders: 60,
          failures: 60,
          slow: 0,
          durationMs: 6000,
        },
        {
          remote: 'mf-research',
          version: stable,
          track: 'stable',
          minute,
          renders: 900,
          failures: 0,
          slow: 0,
          durationMs: 90_000,
        },
      ],
    });
    const sent = await fetch(`${api.url}${API_PATHS.rolloutRenders}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...signRenderReport(body, renderReportKey('test-edge-secret-0123456789abcdef')),
      },
      body,
    });
    expect(sent.status).toBe(204);
    // The deploy API's own reads: no browser ever reported on either version in this environment.
    const health = apiHealthSource(ctx.client);
    expect(await health.visitors('mf-research', canary)).toEqual([]);
    const result = await watch(ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, sleep);
    expect(result).toMatchObject({ outcome: 'rolled-back', version: canary });
    const [entry] = await watchEntries();
    expect(entry?.action).toBe('watch-rollback');
    expect(entry?.reason).toMatch(
      /^server render failures: canary 100\.0 % of 60 renders, stable 0\.0 % of 900 renders .*worse beyond the margin/,
    );
    expect((await ctx.client.state()).manifest.remotes['mf-research']).toMatchObject({ stable });
    expect((await ctx.client.state()).manifest.remotes['mf-research']?.canary).toBeUndefined();
  });

  it('refuses a remote without a canary', async () => {
    await expect(
      watch(
        ctx,
        fakeHealth(() => []),
        { remote: 'mf-account' },
        sleep,
      ),
    ).rejects.toThrow(/mf-account has no canary to watch/);
  });

  it('pnpm rollout watch reads the visitors over the API and exits 3 when --max-wait passes', async () => {
    const cli = await runCli(
      'rollout',
      [
        'watch',
        'mf-research',
        '--interval',
        '0.1',
        '--max-wait',
        '0.3',
        '--to',
        api.url,
        '--env',
        ctx.environment,
      ],
      { DEPLOY_TOKEN: api.adminToken },
    );
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(3);
    expect(cli.stdout).toContain('0 of 50 canary visitors this step');
    expect(cli.stdout).toContain('stopped: no decision within 0.3 s at 1 %');
  });
});
