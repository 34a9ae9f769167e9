import { describe, expect, it } from 'vitest';
import {
  abort,
  type DeployCommandContext,
  DeployRefused,
  describeDeployment,
  MAX_PREVIOUS,
  promote,
  rollback,
  setPercent,
  startCanary,
} from './deployment-commands';
import { adopt, bootstrap, pinIntegrity, watchStep } from './deployment-moves';
import { type DeploymentManifest, emptyManifest } from './manifest';

const V1 = '1.0.0-aaaaaaaaaa';
const V2 = '1.0.1-bbbbbbbbbb';
const V3 = '1.0.2-cccccccccc';
const UNRELEASED = '9.9.9-dddddddddd';
const NOW = new Date('2026-01-02T03:04:05.000Z');
const released = new Set([V1, V2, V3]);

const ctx: DeployCommandContext = {
  now: NOW,
  environment: 'staging',
  isReleased: (_remote, version) => released.has(version),
  integrityOf: (_remote, version) => (released.has(version) ? `sha384-${version}` : null),
  releasedVersions: () => [V3, V2, V1],
};

function withStable(stable = V1, previous: string[] = []): DeploymentManifest {
  const m = emptyManifest('staging', NOW);
  m.remotes['mf-research'] = { stable, previous };
  return m;
}

const refused = (work: () => unknown, text: string | RegExp) => {
  expect(work).toThrow(DeployRefused);
  expect(work).toThrow(text);
};

describe('deployment commands', () => {
  it('start, set, promote: the canary becomes stable and the old stable the first rollback target', () => {
    const m = withStable();
    expect(startCanary(m, { remote: 'mf-research', version: V2, percent: 10 }, ctx)).toEqual([
      { action: 'start', remote: 'mf-research' },
    ]);
    expect(m.remotes['mf-research']?.canary).toEqual({
      version: V2,
      percent: 10,
      startedAt: NOW.toISOString(),
      stepStartedAt: NOW.toISOString(),
    });
    const later = { ...ctx, now: new Date(NOW.getTime() + 60_000) };
    setPercent(m, { remote: 'mf-research', percent: 50 }, later);
    expect(m.remotes['mf-research']?.canary?.stepStartedAt).toBe(later.now.toISOString());
    expect(describeDeployment(m.remotes['mf-research'])).toBe(`stable ${V1} · canary ${V2} at 50 %`);
    promote(m, { remote: 'mf-research' }, ctx);
    expect(m.remotes['mf-research']).toEqual({ stable: V2, previous: [V1] });
  });

  it("refuses with today's texts", () => {
    const empty = emptyManifest('staging', NOW);
    refused(
      () => startCanary(empty, { remote: 'mf-research', version: V2, percent: 10 }, ctx),
      `mf-research has no deployment in "staging" yet (pnpm start sets one, or pnpm rollout rollback mf-research --to <version>)`,
    );
    const m = withStable();
    refused(
      () => startCanary(m, { remote: 'mf-research', version: UNRELEASED, percent: 10 }, ctx),
      `mf-research ${UNRELEASED} is not released; released versions, newest first: ${V3}, ${V2}, ${V1}`,
    );
    refused(
      () =>
        startCanary(
          m,
          { remote: 'mf-research', version: UNRELEASED, percent: 1 },
          { ...ctx, releasedVersions: () => [] },
        ),
      `mf-research ${UNRELEASED} is not released; mf-research has no releases yet (pnpm release mf-research)`,
    );
    refused(
      () => startCanary(m, { remote: 'mf-research', version: V1, percent: 10 }, ctx),
      `mf-research ${V1} is already the stable version`,
    );
    refused(
      () => promote(m, { remote: 'mf-research' }, ctx),
      'mf-research has no canary to promote; start one with pnpm rollout start mf-research <version> --percent N',
    );
    refused(() => abort(m, { remote: 'mf-research' }, ctx), 'mf-research has no canary to abort');
    refused(() => setPercent(m, { remote: 'mf-research', percent: 5 }, ctx), 'has no canary to set');
    startCanary(m, { remote: 'mf-research', version: V2, percent: 10 }, ctx);
    refused(
      () => startCanary(m, { remote: 'mf-research', version: V3, percent: 10 }, ctx),
      `mf-research already has a canary (${V2} at 10 %); promote or abort it first (pnpm rollout abort mf-research)`,
    );
    refused(
      () => rollback(withStable(), { remote: 'mf-research' }, ctx),
      'mf-research has no previous stable version to roll back to; name one with --to <version>',
    );
  });

  it('a start, promote or rollback past compatibility conflicts needs force and is audited as forced', () => {
    const conflict = {
      kind: 'library-major' as const,
      package: 'react',
      needs: `mf-research ${V2}`,
      provider: 'the live shell',
      detail: 'built against major 18 (18.3.1), the provider has 19.3.1',
    };
    const gate = { against: 'what is live in production', conflicts: [conflict] };
    refused(
      () => startCanary(withStable(), { remote: 'mf-research', version: V2, percent: 10, gate }, ctx),
      /is not compatible with what is live in production:\n- react: built against major 18 .*the live shell provides another major\)/,
    );
    const m = withStable();
    const reason = `despite compatibility conflicts: react: built against major 18 (18.3.1), the provider has 19.3.1 (mf-research ${V2} needs it; the live shell provides another major)`;
    expect(
      startCanary(m, { remote: 'mf-research', version: V2, percent: 10, gate, force: true }, ctx),
    ).toEqual([{ action: 'start', remote: 'mf-research', forced: true, reason: `started ${reason}` }]);
    refused(() => promote(m, { remote: 'mf-research', gate }, ctx), /is not compatible/);
    expect(promote(m, { remote: 'mf-research', gate, force: true }, ctx)).toEqual([
      { action: 'promote', remote: 'mf-research', forced: true, reason: `promoted ${reason}` },
    ]);
    refused(
      () => rollback(withStable(V3, [V2]), { remote: 'mf-research', to: V2, gate }, ctx),
      /not compatible/,
    );
    // Back to the previous stable is the emergency exit: never gated.
    expect(rollback(withStable(V3, [V2]), { remote: 'mf-research', gate }, ctx)).toEqual([
      { action: 'rollback', remote: 'mf-research' },
    ]);
  });

  it('rollback goes to previous[0], or to any released version with `to`, dropping a canary', () => {
    const m = withStable(V2, [V1]);
    startCanary(m, { remote: 'mf-research', version: V3, percent: 10 }, ctx);
    rollback(m, { remote: 'mf-research' }, ctx);
    expect(m.remotes['mf-research']).toEqual({ stable: V1, previous: [] });
    const fresh = emptyManifest('staging', NOW);
    rollback(fresh, { remote: 'mf-research', to: V3 }, ctx);
    expect(fresh.remotes['mf-research']).toEqual({ stable: V3, previous: [] });
    refused(() => rollback(fresh, { remote: 'mf-research', to: V3 }, ctx), 'is already the stable version');
    refused(() => rollback(fresh, { remote: 'mf-research', to: UNRELEASED }, ctx), 'is not released');
  });

  it('keeps at most MAX_PREVIOUS earlier stables', () => {
    const many = Array.from({ length: MAX_PREVIOUS + 5 }, (_, i) => `1.0.${i + 10}-eeeeeeeeee`);
    const m = withStable(V1, many);
    startCanary(m, { remote: 'mf-research', version: V2, percent: 10 }, ctx);
    promote(m, { remote: 'mf-research' }, ctx);
    expect(m.remotes['mf-research']?.previous).toHaveLength(MAX_PREVIOUS);
    expect(m.remotes['mf-research']?.previous[0]).toBe(V1);
  });
});

describe('watch moves, bootstrap, adopt, integrity', () => {
  it('watch: advance up only, promote, rollback, stop changes nothing', () => {
    const m = withStable();
    startCanary(m, { remote: 'mf-research', version: V2, percent: 10 }, ctx);
    expect(watchStep(m, { remote: 'mf-research', step: 'advance', percent: 25, reason: 'ok' }, ctx)).toEqual([
      { action: 'watch-advance', remote: 'mf-research', reason: 'ok' },
    ]);
    refused(
      () => watchStep(m, { remote: 'mf-research', step: 'advance', percent: 25, reason: 'x' }, ctx),
      'a watch step only moves it up',
    );
    const before = structuredClone(m);
    expect(watchStep(m, { remote: 'mf-research', step: 'stop', reason: 'r' }, ctx)[0]?.action).toBe(
      'watch-stop',
    );
    expect(m).toEqual(before);
    const rolled = structuredClone(m);
    watchStep(rolled, { remote: 'mf-research', step: 'rollback', reason: 'bad' }, ctx);
    expect(rolled.remotes['mf-research']).toEqual({ stable: V1, previous: [] });
    watchStep(m, { remote: 'mf-research', step: 'promote', reason: 'good' }, ctx);
    expect(m.remotes['mf-research']).toEqual({ stable: V2, previous: [V1] });
    refused(
      () => watchStep(m, { remote: 'mf-research', step: 'stop', reason: 'r' }, ctx),
      'has no canary to watch',
    );
  });

  it('bootstrap sets a first stable only, or replaces one when asked', () => {
    const m = emptyManifest('staging', NOW);
    expect(bootstrap(m, { remote: 'mf-research', version: V1 }, ctx)[0]?.reason).toBe(
      'first stable: the build pnpm start found',
    );
    expect(bootstrap(m, { remote: 'mf-research', version: V2 }, ctx)).toEqual([]);
    expect(bootstrap(m, { remote: 'mf-research', version: V2, replace: true }, ctx)).toHaveLength(1);
    expect(m.remotes['mf-research']).toEqual({ stable: V2, previous: [V1] });
    expect(bootstrap(m, { remote: 'mf-research', version: V2, replace: true }, ctx)).toEqual([]);
    refused(
      () => bootstrap(emptyManifest('x', NOW), { remote: 'mf-research', version: UNRELEASED }, ctx),
      'is not released',
    );
  });

  it("adopt takes the source's stable or canary, as a canary or as stable, with the source's digest", () => {
    const source = withStable(V2);
    source.remotes['mf-research']!.integrity = { [V2]: 'sha384-from-staging' };
    const target = withStable(V1);
    const prod = { ...ctx, environment: 'production' };
    refused(
      () => adopt(target, { remote: 'mf-research', version: V3, from: 'staging', source }, prod),
      `mf-research ${V3} is not what "staging" runs (stable ${V2})`,
    );
    const notes = adopt(
      target,
      { remote: 'mf-research', version: V2, from: 'staging', source, percent: 5 },
      prod,
    );
    expect(notes).toEqual([{ action: 'start', remote: 'mf-research', reason: 'adopted from "staging"' }]);
    expect(target.remotes['mf-research']?.canary?.percent).toBe(5);
    adopt(target, { remote: 'mf-research', version: V2, from: 'staging', source }, prod);
    expect(target.remotes['mf-research']?.stable).toBe(V2);
    expect(target.remotes['mf-research']?.previous).toEqual([V1]);
    pinIntegrity(target, prod);
    expect(target.remotes['mf-research']?.integrity).toEqual({
      [V2]: 'sha384-from-staging',
      [V1]: `sha384-${V1}`,
    });
    const empty = emptyManifest('production', NOW);
    adopt(empty, { remote: 'mf-research', version: V2, from: 'staging', source }, prod);
    expect(empty.remotes['mf-research']?.stable).toBe(V2);
  });

  it('pinIntegrity refuses a named version without a digest and drops unnamed ones', () => {
    const m = withStable(V1);
    m.remotes['mf-research']!.integrity = { [V1]: 'sha384-kept', [V3]: 'sha384-dropped' };
    pinIntegrity(m, ctx);
    expect(m.remotes['mf-research']?.integrity).toEqual({ [V1]: 'sha384-kept' });
    refused(
      () => pinIntegrity(withStable(UNRELEASED), ctx),
      `mf-research ${UNRELEASED}: no entry digest (is it released?)`,
    );
  });
});
