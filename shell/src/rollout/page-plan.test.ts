import { LIMITS } from '@app/contracts';
import { MAX_REMOTE_LOAD_BUDGET_MS, type PagePlan, pagePlanBlock, type RemotePackage } from '@app/rollout';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRuntimeConfig } from '../config/runtime-config';
import { forgetPagePlan, pagePlan } from './page-plan';
import { prepareRollout } from './prepare';
import { PREVIEW_KEY, takePreviewParam } from './preview';

// Issue 30: where the edge wrote the plan into the page, the shell starts from it and asks nobody.
const origin = window.location.origin;
const config = {
  apiBaseUrl: 'http://localhost:4000',
  remotes: {
    mf_public_pages: { url: 'http://localhost:3004/mf-manifest.json' },
    mf_account: { url: 'http://localhost:3001/mf-manifest.json' },
    mf_research: { url: 'http://localhost:3002/mf-manifest.json' },
    mf_survey: { url: 'http://localhost:3003/mf-manifest.json' },
  },
  deployment: { manifestUrl: '/deployment.json', releasesUrl: '/releases/' },
};
const digest = (c: string) => `sha384-${c.repeat(64)}`;
const released = (remote: RemotePackage, version: string, track: 'stable' | 'canary', integrity: string) => ({
  remote,
  entry: `${origin}/releases/${remote}/${version}/mf-manifest.json`,
  version,
  track,
  integrity,
});
const { remote: _, ...stable } = released('mf-public-pages', '1.0.0-aaaaaaaaaa', 'stable', digest('A'));
const plan: PagePlan = {
  config,
  plan: {
    mf_public_pages: {
      ...released('mf-public-pages', '1.1.0-bbbbbbbbbb', 'canary', digest('B')),
      fallback: stable,
    },
    mf_account: {
      remote: 'mf-account',
      entry: config.remotes.mf_account.url,
      version: null,
      track: 'config',
      integrity: null,
      fallback: null,
    },
    mf_research: {
      remote: 'mf-research',
      entry: config.remotes.mf_research.url,
      version: null,
      track: 'config',
      integrity: null,
      fallback: null,
    },
    mf_survey: {
      remote: 'mf-survey',
      entry: config.remotes.mf_survey.url,
      version: null,
      track: 'config',
      integrity: null,
      fallback: null,
    },
  },
  preview: { status: 'refused', message: 'This preview link has expired.' },
  userId: '7',
};

function servePage(block: string | null) {
  document.head.innerHTML = block ?? '';
  forgetPagePlan();
}

afterEach(() => {
  vi.restoreAllMocks();
  servePage(null);
});

describe('a page the edge composed', () => {
  it('gives the shell its config, plan and preview state without a single request', async () => {
    servePage(pagePlanBlock(plan));
    const fetch = vi.spyOn(globalThis, 'fetch');
    const loaded = await loadRuntimeConfig();
    expect(loaded.apiBaseUrl).toBe('http://localhost:4000');
    expect(loaded.deployment?.releasesUrl).toBe(`${origin}/releases/`);
    const rollout = await prepareRollout(loaded);
    expect(rollout.plan).toEqual(plan.plan);
    expect(rollout.preview).toEqual(plan.preview);
    expect(rollout.canaryBudgetMs).toBe(8000);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('takes a preview link out of the address bar without storing it (the edge has dealt with it)', () => {
    servePage(pagePlanBlock(plan));
    window.history.replaceState(null, '', '/about?preview=tok.sig&x=1');
    takePreviewParam();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/about?x=1');
    expect(localStorage.getItem(PREVIEW_KEY)).toBeNull();
  });

  it('is ignored when the block is not a valid plan: the shell decides itself, as without an edge', () => {
    servePage(pagePlanBlock({ ...plan, userId: 'not-a-number' }));
    expect(pagePlan()).toBeNull();
    servePage('<script type="application/json" id="page-plan">{ half</script>');
    expect(pagePlan()).toBeNull();
  });

  it("bounds a remote's load budget by SPEC's lazy-load timeout, the same in both schemas' homes", () => {
    expect(MAX_REMOTE_LOAD_BUDGET_MS).toBe(LIMITS.lazyLoadTimeoutMs);
  });
});
