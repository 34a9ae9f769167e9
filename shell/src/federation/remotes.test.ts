import type { RemoteChoice } from '@app/rollout';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const runtime = vi.hoisted(() => ({
  registered: [] as Array<{ name: string; entry: string; force: boolean }>,
  behaviour: new Map<string, () => Promise<unknown>>(),
  current: new Map<string, string>(),
}));

vi.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: (remotes: Array<{ name: string; entry: string }>, options?: { force?: boolean }) => {
    for (const r of remotes) {
      runtime.registered.push({ ...r, force: options?.force ?? false });
      runtime.current.set(r.name, r.entry);
    }
  },
  registerPlugins: () => undefined,
  loadRemote: (id: string) => {
    const entry = runtime.current.get(id.split('/')[0]!)!;
    return (runtime.behaviour.get(entry) ?? (() => Promise.reject(new Error(`404 ${entry}`))))();
  },
}));

const { configureHealthReports, flushHealthReports } = await import('../rollout/health');
const { currentChoice, loadRemoteApp, registerAllRemotes, RemoteLoadError } = await import('./remotes');

const STABLE = '/releases/mf-research/1.0.0-aaaaaaaaaa/mf-manifest.json';
const CANARY = '/releases/mf-research/1.1.0-bbbbbbbbbb/mf-manifest.json';
const STABLE_DIGEST = `sha384-${'A'.repeat(64)}`;
const CANARY_DIGEST = `sha384-${'B'.repeat(64)}`;
const App = () => null;

function choice(over: Partial<RemoteChoice>): RemoteChoice {
  return {
    remote: 'mf-research',
    entry: STABLE,
    version: '1.0.0-aaaaaaaaaa',
    track: 'stable',
    integrity: STABLE_DIGEST,
    fallback: null,
    ...over,
  };
}

function register(research: RemoteChoice, budget = 100) {
  const plain = (remote: RemoteChoice['remote'], entry: string) =>
    choice({ remote, entry, version: null, track: 'config', integrity: null });
  registerAllRemotes({
    canaryBudgetMs: budget,
    plan: {
      mf_research: research,
      mf_account: plain('mf-account', 'http://localhost:3001/mf-manifest.json'),
      mf_survey: plain('mf-survey', 'http://localhost:3003/mf-manifest.json'),
      mf_public_pages: plain('mf-public-pages', 'http://localhost:3004/mf-manifest.json'),
    },
  });
}

/** What the page's report carries once it is hidden: its ticket and one event per remote, version and kind. */
const reports = () => {
  flushHealthReports();
  return vi.mocked(fetch).mock.calls.flatMap(([, init]) => {
    const body = JSON.parse(String((init as RequestInit).body)) as { ticket: string; events: object[] };
    expect(body.ticket).toBe(TICKET.ticket);
    return body.events as Array<Record<string, unknown>>;
  });
};
const TICKET = { ticket: 'claims.signature', expiresAt: Date.now() + 3_600_000 };

beforeEach(() => {
  runtime.registered.length = 0;
  runtime.behaviour.clear();
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 204 }));
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  configureHealthReports('http://api.test', TICKET);
});
afterEach(() => vi.restoreAllMocks());

const canary = choice({
  entry: CANARY,
  version: '1.1.0-bbbbbbbbbb',
  track: 'canary',
  integrity: CANARY_DIGEST,
  fallback: { entry: STABLE, version: '1.0.0-aaaaaaaaaa', track: 'stable', integrity: STABLE_DIGEST },
});

describe('loading a remote from the rollout plan', () => {
  it('loads the canary and reports the load', async () => {
    runtime.behaviour.set(CANARY, async () => ({ default: App }));
    register(canary);
    expect((await loadRemoteApp('mf_research')).default).toBe(App);
    expect(reports()).toEqual([
      expect.objectContaining({ remote: 'mf-research', version: '1.1.0-bbbbbbbbbb', kind: 'load' }),
    ]);
  });

  it('falls back to stable when the canary fails, reporting both, without a page reload', async () => {
    runtime.behaviour.set(STABLE, async () => ({ default: App }));
    register(canary);
    expect((await loadRemoteApp('mf_research')).default).toBe(App);
    expect(runtime.registered.at(-1)).toEqual({ name: 'mf_research', entry: STABLE, force: true });
    expect(currentChoice('mf_research').track).toBe('stable');
    expect(reports().map((r) => `${r.version} ${r.kind}`)).toEqual([
      '1.1.0-bbbbbbbbbb load-failure',
      '1.0.0-aaaaaaaaaa load',
    ]);
  });

  it('falls back when the canary hangs past its budget', async () => {
    runtime.behaviour.set(CANARY, () => new Promise(() => undefined));
    runtime.behaviour.set(STABLE, async () => ({ default: App }));
    register(canary, 50);
    const started = Date.now();
    expect((await loadRemoteApp('mf_research')).default).toBe(App);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(reports()[0]).toMatchObject({ version: '1.1.0-bbbbbbbbbb', kind: 'load-failure' });
  });

  it('reports a failing stable version and gives the region a load error (no fallback left)', async () => {
    register(choice({}));
    await expect(loadRemoteApp('mf_research')).rejects.toBeInstanceOf(RemoteLoadError);
    expect(reports()).toEqual([
      expect.objectContaining({ version: choice({}).version, kind: 'load-failure' }),
    ]);
  });

  it('sends no health report for a plain config.json URL', async () => {
    register(choice({ entry: 'http://localhost:3002/mf-manifest.json', version: null, track: 'config' }));
    await expect(loadRemoteApp('mf_research')).rejects.toBeInstanceOf(RemoteLoadError);
    expect(reports()).toEqual([]);
  });

  it('drops chunk pushes from the failed build, keeping the replacement’s', async () => {
    runtime.behaviour.set(STABLE, async () => ({ default: App }));
    register(canary);
    await loadRemoteApp('mf_research');
    const chunks = (globalThis as unknown as Record<string, { push: (item: unknown) => number }>)
      .webpackChunkmf_research!;
    const installed: unknown[] = [];
    // What the stable entry's webpack runtime does: keep the current push as parent, install its own.
    const parent = chunks.push.bind(chunks);
    chunks.push = (item: unknown) => {
      installed.push(item);
      return parent(item);
    };
    const runAs = (src: string, item: string) => {
      const script = document.createElement('script');
      script.setAttribute('src', src);
      vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script);
      chunks.push(item);
    };
    runAs(`${window.location.origin}/releases/mf-research/1.1.0-bbbbbbbbbb/619.js`, 'late canary chunk');
    runAs(`${window.location.origin}/releases/mf-research/1.0.0-aaaaaaaaaa/619.js`, 'stable chunk');
    expect(installed).toEqual(['stable chunk']);
  });
});

describe('integrity', () => {
  it('never loads a released version that has no recorded entry digest, and reports the failure', async () => {
    runtime.behaviour.set(STABLE, async () => ({ default: App }));
    register(choice({ integrity: null }));
    await expect(loadRemoteApp('mf_research')).rejects.toBeInstanceOf(RemoteLoadError);
    expect(reports()).toEqual([
      expect.objectContaining({ version: '1.0.0-aaaaaaaaaa', kind: 'load-failure' }),
    ]);
  });
});
