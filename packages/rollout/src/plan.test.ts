import { describe, expect, it } from 'vitest';
import { cohortOf } from './cohort';
import type { DeploymentManifest } from './manifest';
import { type PlanInput, planRemote, planRemotes } from './plan';
import { REMOTE_CONTAINERS as REMOTE_NAMES } from './remotes';

const configUrls = {
  mf_public_pages: 'http://localhost:3004/mf-manifest.json',
  mf_account: 'http://localhost:3001/mf-manifest.json',
  mf_research: 'http://localhost:3002/mf-manifest.json',
  mf_survey: 'http://localhost:3003/mf-manifest.json',
};
const at = '2026-11-22T10:00:00.000Z';
const digest = (c: string) => `sha384-${c.repeat(64)}`;
const manifest: DeploymentManifest = {
  schemaVersion: 1,
  environment: 'local',
  revision: 4,
  updatedAt: at,
  remotes: {
    'mf-research': {
      stable: '1.0.0-aaaaaaaaaa',
      canary: { version: '1.1.0-bbbbbbbbbb', percent: 10, startedAt: at, stepStartedAt: at },
      previous: [],
      integrity: { '1.0.0-aaaaaaaaaa': digest('A'), '1.1.0-bbbbbbbbbb': digest('B') },
    },
    'mf-account': {
      stable: '1.0.0-cccccccccc',
      previous: [],
      integrity: { '1.0.0-cccccccccc': digest('C') },
    },
  },
};
const input = (over: Partial<PlanInput> = {}): PlanInput => ({
  configUrls,
  manifest,
  releasesUrl: 'http://localhost:3000/releases/',
  cohort: 50,
  preview: null,
  ...over,
});

describe('remote plan', () => {
  it('serves stable above the canary percent, with no fallback needed', () => {
    expect(planRemote('mf_research', input())).toEqual({
      remote: 'mf-research',
      entry: 'http://localhost:3000/releases/mf-research/1.0.0-aaaaaaaaaa/mf-manifest.json',
      version: '1.0.0-aaaaaaaaaa',
      track: 'stable',
      integrity: digest('A'),
      fallback: null,
    });
  });

  it('serves the canary below its percent, falling back to stable', () => {
    const choice = planRemote('mf_research', input({ cohort: 9 }));
    expect(choice.track).toBe('canary');
    expect(choice.entry).toBe('http://localhost:3000/releases/mf-research/1.1.0-bbbbbbbbbb/mf-manifest.json');
    expect(choice.fallback?.version).toBe('1.0.0-aaaaaaaaaa');
    // Each version brings its own digest: the canary's, and stable's for the fallback.
    expect(choice.integrity).toBe(digest('B'));
    expect(choice.fallback?.integrity).toBe(digest('A'));
  });

  it("takes config.json's digest for a plain URL, and none where it gives none", () => {
    const pinned = planRemote('mf_survey', input({ configIntegrity: { mf_survey: digest('S') } }));
    expect(pinned).toMatchObject({ track: 'config', integrity: digest('S') });
    expect(planRemote('mf_survey', input())).toMatchObject({ track: 'config', integrity: null });
  });

  it('leaves a released version the manifest has no digest for without one (the shell refuses it)', () => {
    const { integrity: _, ...bare } = manifest.remotes['mf-research']!;
    const choice = planRemote(
      'mf_research',
      input({ manifest: { ...manifest, remotes: { 'mf-research': bare } } }),
    );
    expect(choice).toMatchObject({ track: 'stable', integrity: null });
  });

  it('uses config.json for a remote the manifest does not list, or without a manifest', () => {
    expect(planRemote('mf_survey', input())).toMatchObject({
      entry: configUrls.mf_survey,
      track: 'config',
      version: null,
    });
    expect(planRemote('mf_research', input({ manifest: null }))).toMatchObject({ track: 'config' });
  });

  it('pins a previewed remote to its version, leaving the others alone', () => {
    const preview = {
      remote: 'mf-account' as const,
      version: '2.0.0-dddddddddd',
      expiresAt: at,
      integrity: digest('D'),
    };
    const plan = planRemotes(REMOTE_NAMES, input({ preview }));
    expect(plan.mf_account).toMatchObject({
      track: 'preview',
      version: '2.0.0-dddddddddd',
      integrity: digest('D'),
    });
    expect(plan.mf_account.fallback?.version).toBe('1.0.0-cccccccccc');
    expect(plan.mf_research.track).toBe('stable');
  });

  it('gives a visitor the canaries of two remotes together', () => {
    const both: DeploymentManifest = {
      ...manifest,
      remotes: {
        ...manifest.remotes,
        'mf-account': { ...manifest.remotes['mf-research']!, stable: '1.0.0-cccccccccc' },
      },
    };
    for (let i = 0; i < 200; i++) {
      const plan = planRemotes(
        REMOTE_NAMES,
        input({ manifest: both, cohort: cohortOf(`anon:visitor-${i}`) }),
      );
      expect(plan.mf_account.track).toBe(plan.mf_research.track);
    }
  });
});
