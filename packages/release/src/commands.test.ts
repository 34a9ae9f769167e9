import fs from 'node:fs';
import { AuditEntrySchema } from '@app/contracts';
import { readManifestFile } from '@app/rollout/node';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abort, promote, rollback, setPercent, startCanary } from './commands';
import type { HealthSource } from './health';
import { release } from './release';
import { formatHistory, history, statusReport } from './status';
import { pinsOf, readJsonLines, runCli, type Sandbox, sandbox } from './test-support';

/** A HealthSource answering from a function (per remote, version and window start). */
const fakeHealth = (visitors: HealthSource['visitors']): HealthSource => ({ visitors });
const visitor = (errorViews: number, views = 1, lcp: number | null = null) => ({
  views,
  errorViews,
  lcp,
  inp: null,
  cls: null,
});

let s: Sandbox;
let v1: string;
let v2: string;
let v3: string;
beforeEach(async () => {
  s = sandbox();
  const rel = async (content: string) => {
    s.tick(1000);
    return (await release({ remote: 'mf-research', dist: s.dist({ at: content, content }) }, s.ctx)).info
      .version;
  };
  v1 = await rel('one');
  v2 = await rel('two');
  v3 = await rel('three');
  rollback(s.ctx, { remote: 'mf-research', to: v1 }); // the first stable
});
afterEach(() => s.cleanup());

const manifest = () => readManifestFile(s.paths.manifestFile);
const research = () => manifest()?.remotes['mf-research'];
const pins = (...versions: string[]) => pinsOf(s.paths.store, 'mf-research', ...versions);

describe('manual rollout commands', () => {
  it('start, set, promote: each one write, revision +1, audited with the state before and after', () => {
    s.tick(1000);
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 10 });
    expect(research()).toEqual({
      stable: v1,
      previous: [],
      integrity: pins(v1, v2),
      canary: {
        version: v2,
        percent: 10,
        startedAt: '2026-11-22T10:00:04.000Z',
        stepStartedAt: '2026-11-22T10:00:04.000Z',
      },
    });
    s.tick(1000);
    setPercent(s.ctx, { remote: 'mf-research', percent: 50 });
    expect(research()?.canary).toMatchObject({
      percent: 50,
      startedAt: '2026-11-22T10:00:04.000Z',
      stepStartedAt: '2026-11-22T10:00:05.000Z',
    });
    promote(s.ctx, { remote: 'mf-research' });
    expect(research()).toEqual({ stable: v2, previous: [v1], integrity: pins(v2, v1) });
    expect(manifest()?.revision).toBe(4);

    const entries = readJsonLines(s.paths.auditFile).map((e) => v.parse(AuditEntrySchema, e));
    expect(entries.map((e) => [e.action, e.from, e.to])).toEqual([
      ['rollback', null, `stable ${v1}`],
      ['start', `stable ${v1}`, `stable ${v1} · canary ${v2} at 10 %`],
      ['set', `stable ${v1} · canary ${v2} at 10 %`, `stable ${v1} · canary ${v2} at 50 %`],
      ['promote', `stable ${v1} · canary ${v2} at 50 %`, `stable ${v2}`],
    ]);
    expect(entries.every((e) => e.actor === 'tester' && e.environment === 'test')).toBe(true);
    // history: newest first
    expect(history(s.ctx, 'mf-research').map((e) => e.action)).toEqual([
      'promote',
      'set',
      'start',
      'rollback',
    ]);
    expect(formatHistory('mf-research', history(s.ctx, 'mf-research')).split('\n')[0]).toContain(
      `promote: stable ${v1} · canary`,
    );
  });

  it('abort drops the canary; rollback goes to previous[0] and drops it from previous', () => {
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 10 });
    abort(s.ctx, { remote: 'mf-research' });
    expect(research()).toEqual({ stable: v1, previous: [], integrity: pins(v1) });
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 10 });
    promote(s.ctx, { remote: 'mf-research' });
    startCanary(s.ctx, { remote: 'mf-research', version: v3, percent: 10 });
    promote(s.ctx, { remote: 'mf-research' });
    expect(research()).toEqual({ stable: v3, previous: [v2, v1], integrity: pins(v3, v2, v1) });
    startCanary(s.ctx, { remote: 'mf-research', version: v1, percent: 5 });
    rollback(s.ctx, { remote: 'mf-research' });
    expect(research()).toEqual({ stable: v2, previous: [v1], integrity: pins(v2, v1) });
    rollback(s.ctx, { remote: 'mf-research', to: v3 });
    expect(research()).toEqual({ stable: v3, previous: [v1], integrity: pins(v3, v1) });
  });

  it('refuses what makes no sense, with a message saying what to do, and writes nothing', () => {
    const before = fs.readFileSync(s.paths.manifestFile, 'utf8');
    expect(() => setPercent(s.ctx, { remote: 'mf-research', percent: 5 })).toThrow(
      'mf-research has no canary to set; start one with pnpm rollout start mf-research <version> --percent N',
    );
    expect(() => promote(s.ctx, { remote: 'mf-research' })).toThrow('mf-research has no canary to promote');
    expect(() => abort(s.ctx, { remote: 'mf-research' })).toThrow('mf-research has no canary to abort');
    expect(() => rollback(s.ctx, { remote: 'mf-research' })).toThrow(
      'mf-research has no previous stable version to roll back to; name one with --to <version>',
    );
    expect(() => startCanary(s.ctx, { remote: 'mf-research', version: v1, percent: 5 })).toThrow(
      `mf-research ${v1} is already the stable version`,
    );
    expect(() =>
      startCanary(s.ctx, { remote: 'mf-research', version: '1.0.0-0000000000', percent: 5 }),
    ).toThrow(
      `mf-research 1.0.0-0000000000 is not released; released versions, newest first: ${v3}, ${v2}, ${v1}`,
    );
    expect(() => startCanary(s.ctx, { remote: 'mf-account', version: v2, percent: 5 })).toThrow(
      `mf-account ${v2} is not released; mf-account has no releases yet (pnpm release mf-account)`,
    );
    expect(() => rollback(s.ctx, { remote: 'mf-research', to: '1.0.0-0000000000' })).toThrow(
      'is not released',
    );
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 5 });
    expect(() => startCanary(s.ctx, { remote: 'mf-research', version: v3, percent: 5 })).toThrow(
      `mf-research already has a canary (${v2} at 5 %); promote or abort it first`,
    );
    abort(s.ctx, { remote: 'mf-research' });
    expect(JSON.parse(fs.readFileSync(s.paths.manifestFile, 'utf8')).remotes).toEqual(
      JSON.parse(before).remotes,
    );
  });

  it('start is compatibility-gated against the live shell; --force is audited', async () => {
    s.tick(1000);
    const react18 = [{ name: 'react', version: '18.2.0', requiredVersion: '^18.2.0' }];
    const { info } = await release(
      { remote: 'mf-research', dist: s.dist({ at: 'r18', shared: react18 }), force: true },
      s.ctx,
    );
    expect(() => startCanary(s.ctx, { remote: 'mf-research', version: info.version, percent: 5 })).toThrow(
      'react: the remote requires major 18 (18.2.0), the shell provides 19.3.1',
    );
    startCanary(s.ctx, { remote: 'mf-research', version: info.version, percent: 5, force: true });
    expect(readJsonLines(s.paths.auditFile).at(-1)).toMatchObject({
      action: 'start',
      forced: true,
      reason:
        'started despite compatibility conflicts: react: the remote requires major 18 (18.2.0), the shell provides 19.3.1',
    });
  });

  it('status shows stable, canary and the health of both since the canary started', async () => {
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 10 });
    const seen: string[] = [];
    const health = fakeHealth((remote, version, since) => {
      seen.push(`${remote} ${version} ${since?.toISOString()}`);
      // The canary: 4 visitors, one of whom saw errors on 2 of 4 page views.
      return version === v2
        ? [visitor(2, 4, 2000), visitor(0, 1, 1000), visitor(0, 1, 1200), visitor(0, 2, 1400)]
        : [visitor(0, 3), visitor(0, 1)];
    });
    const report = await statusReport(s.ctx, health);
    const r = report.remotes.find((x) => x.remote === 'mf-research');
    expect(r?.health).toEqual([
      {
        version: v1,
        track: 'stable',
        since: '2026-11-22T10:00:03.000Z',
        visitors: 2,
        views: 4,
        errorRate: 0,
        lcp: null,
        inp: null,
        cls: null,
      },
      {
        version: v2,
        track: 'canary',
        since: '2026-11-22T10:00:03.000Z',
        visitors: 4,
        views: 8,
        errorRate: 0.125,
        lcp: 1400,
        inp: null,
        cls: null,
      },
    ]);
    expect(report.remotes.find((x) => x.remote === 'mf-account')).toEqual({
      remote: 'mf-account',
      stable: null,
      canary: null,
      previous: [],
      health: [],
    });
  });
});

describe('pnpm rollout (the CLI)', () => {
  it('validates percent, remote and version with one line on stderr and exit 1', async () => {
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 10 });
    const before = fs.readFileSync(s.paths.manifestFile, 'utf8');
    const cases: [string[], string][] = [
      [
        ['set', 'mf-research', '--percent', '101'],
        'error: --percent must be a whole number from 0 to 100, got "101"\n',
      ],
      [
        ['set', 'mf-research', '--percent', 'ten'],
        'error: --percent must be a whole number from 0 to 100, got "ten"\n',
      ],
      [
        ['promote', 'mf-nope'],
        'error: unknown remote "mf-nope"; valid remotes: mf-account, mf-research, mf-survey, mf-public-pages\n',
      ],
      [
        ['start', 'mf-research', '1.0.0-0000000000', '--percent', '5'],
        `error: mf-research 1.0.0-0000000000 is not released; released versions, newest first: ${v3}, ${v2}, ${v1}\n`,
      ],
      [
        ['rollback', 'mf-research'],
        'error: mf-research has no previous stable version to roll back to; name one with --to <version>\n',
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli('rollout', args, s.env)));
    results.forEach((result, i) => {
      expect(result).toEqual({ code: 1, stdout: '', stderr: cases[i]?.[1] });
    });
    expect(fs.readFileSync(s.paths.manifestFile, 'utf8')).toBe(before);
  }, 20_000);

  it('set, history --json and status --json work end to end', async () => {
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 10 });
    const set = await runCli('rollout', ['set', 'mf-research', '--percent', '25'], s.env);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toContain(
      `mf-research: stable ${v1} · canary ${v2} at 10 % → stable ${v1} · canary ${v2} at 25 %`,
    );
    const [hist, status] = await Promise.all([
      runCli('rollout', ['history', 'mf-research', '--json'], s.env),
      runCli('rollout', ['status', '--json'], s.env),
    ]);
    expect(JSON.parse(hist.stdout).entries.map((e: { action: string }) => e.action)).toEqual([
      'set',
      'start',
      'rollback',
    ]);
    // The real health store (the API's database, here a temp file): no reports yet.
    const report = JSON.parse(status.stdout);
    expect(report.healthError).toBeNull();
    expect(report.remotes[1]).toMatchObject({
      remote: 'mf-research',
      stable: v1,
      canary: { version: v2, percent: 25 },
      health: [
        { track: 'stable', visitors: 0, errorRate: null },
        { track: 'canary', visitors: 0, errorRate: null },
      ],
    });
  }, 20_000);
});

describe('entry integrity', () => {
  it('every write pins the digest recorded at release, not what the store holds now', () => {
    const recorded = pins(v2)[v2];
    // Someone alters the stored entry after release: the manifest keeps the digest of what was released.
    const entry = `${s.paths.store}/mf-research/${v2}/remoteEntry.js`;
    fs.appendFileSync(entry, '\n// tampered');
    startCanary(s.ctx, { remote: 'mf-research', version: v2, percent: 10 });
    expect(research()?.integrity?.[v2]).toBe(recorded);
    expect(research()?.integrity?.[v2]).not.toBe(pins(v2)[v2]);
  });
});
