import { describe, expect, it } from 'vitest';
import { chooseVersion, cohortOf, visitorIdentifier } from './cohort';
import type { RemoteDeployment } from './manifest';

/** 2,000 visitor ids as browsers make them (random UUIDs), from a seeded generator so the test is stable. */
function visitorIds(count: number, seed = 42): string[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  return Array.from({ length: count }, () => {
    const hex = Array.from({ length: 4 }, () => next().toString(16).padStart(8, '0')).join('');
    return `anon:${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  });
}

const deployment = (percent: number): RemoteDeployment => ({
  stable: '1.0.0-aaaaaaaaaa',
  canary: {
    version: '1.0.0-bbbbbbbbbb',
    percent,
    startedAt: '2026-11-22T00:00:00.000Z',
    stepStartedAt: '2026-11-22T00:00:00.000Z',
  },
  previous: [],
});

const canaryShare = (ids: string[], percent: number) =>
  (100 * ids.filter((id) => chooseVersion(deployment(percent), cohortOf(id)).track === 'canary').length) /
  ids.length;

describe('cohorts', () => {
  const ids = visitorIds(2000);

  it.each([1, 5, 10, 25, 50, 75, 90])(
    'gives the canary to %i %% of 2,000 visitors, within 2 points',
    (percent) => {
      expect(Math.abs(canaryShare(ids, percent) - percent)).toBeLessThanOrEqual(2);
    },
  );

  it('spreads sequential user ids evenly too', () => {
    const users = Array.from({ length: 2000 }, (_, i) => visitorIdentifier(i + 1, 'unused'));
    for (const percent of [10, 50])
      expect(Math.abs(canaryShare(users, percent) - percent)).toBeLessThanOrEqual(2);
  });

  it('always gives the same id the same cohort', () => {
    for (const id of ids.slice(0, 100)) expect(cohortOf(id)).toBe(cohortOf(id));
    expect(ids.every((id) => cohortOf(id) >= 0 && cohortOf(id) < 100 && Number.isInteger(cohortOf(id)))).toBe(
      true,
    );
  });

  it('never moves a canary visitor back when the percentage rises', () => {
    const steps = [0, 1, 5, 10, 25, 50, 100];
    for (const id of ids) {
      const tracks = steps.map((p) => chooseVersion(deployment(p), cohortOf(id)).track);
      const firstCanary = tracks.indexOf('canary');
      if (firstCanary >= 0) expect(tracks.slice(firstCanary).every((t) => t === 'canary')).toBe(true);
    }
    expect(canaryShare(ids, 0)).toBe(0);
    expect(canaryShare(ids, 100)).toBe(100);
  });

  it('gives two remotes at the same percentage the canary for the same visitors', () => {
    const research = deployment(10);
    const account: RemoteDeployment = { ...deployment(10), stable: '2.0.0-cccccccccc' };
    for (const id of ids) {
      const cohort = cohortOf(id);
      expect(chooseVersion(research, cohort).track).toBe(chooseVersion(account, cohort).track);
    }
  });

  it('serves stable without a canary', () => {
    expect(chooseVersion({ stable: '1.0.0-aaaaaaaaaa', previous: [] }, 0)).toEqual({
      version: '1.0.0-aaaaaaaaaa',
      track: 'stable',
    });
  });

  it('uses the user id when logged in, the browser id otherwise', () => {
    expect(visitorIdentifier(7, 'x')).toBe('user:7');
    expect(visitorIdentifier(null, 'x')).toBe('anon:x');
  });
});
