import { cohortOf } from '@app/rollout';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USER_ID_KEY, VISITOR_ID_KEY } from '../rollout/visitor';

const at = '2026-11-22T10:00:00.000Z';
const STABLE_DIGEST = `sha384-${'A'.repeat(64)}`;
const CANARY_DIGEST = `sha384-${'B'.repeat(64)}`;
const mfManifest = {
  metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '' } },
  exposes: [
    {
      path: './App',
      assets: { js: { sync: ['__federation_expose_App.1234567890.js', '42.abcdef0123.js'] } },
    },
  ],
};
const files: Record<string, unknown> = {
  '/releases/mf-research/1.0.0-aaaaaaaaaa/mf-manifest.json': mfManifest,
  '/releases/mf-research/1.1.0-bbbbbbbbbb/mf-manifest.json': mfManifest,
  '/mf-manifest.json': mfManifest,
  '/config.json': {
    apiBaseUrl: 'http://localhost:4000',
    remotes: { mf_research: { url: 'http://localhost:3002/mf-manifest.json' } },
    deployment: { manifestUrl: '/deployment.json', releasesUrl: '/releases/' },
  },
  '/deployment.json': {
    schemaVersion: 1,
    environment: 'local',
    revision: 2,
    updatedAt: at,
    remotes: {
      'mf-research': {
        stable: '1.0.0-aaaaaaaaaa',
        canary: { version: '1.1.0-bbbbbbbbbb', percent: 50, startedAt: at, stepStartedAt: at },
        integrity: { '1.0.0-aaaaaaaaaa': STABLE_DIGEST, '1.1.0-bbbbbbbbbb': CANARY_DIGEST },
      },
    },
  },
};

/** A fresh module each test: the fetched files are cached per page load. */
async function run(path: string) {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  const { preloadRouteRemote } = await import('./preload-route-remote');
  await preloadRouteRemote();
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].map((l) => ({
    href: l.href,
    as: l.getAttribute('as'),
    crossOrigin: l.crossOrigin,
    integrity: l.integrity || null,
  }));
}

beforeEach(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input)).pathname;
    return path in files
      ? new Response(JSON.stringify(files[path]), { status: 200 })
      : new Response('{}', { status: 404 });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  document.head.innerHTML = '';
});

const origin = window.location.origin;
const stable = `${origin}/releases/mf-research/1.0.0-aaaaaaaaaa/`;
const canary = `${origin}/releases/mf-research/1.1.0-bbbbbbbbbb/`;
/**
 * The entry and the ./App chunks of the build in that folder, preloaded as scripts; the entry with the
 * version's digest and in CORS mode, exactly as the runtime will load it (else the preload goes unused).
 */
const codeIn = (folder: string, digest: string) => [
  { href: `${folder}remoteEntry.js`, as: 'script', crossOrigin: 'anonymous', integrity: digest },
  ...['__federation_expose_App.1234567890.js', '42.abcdef0123.js'].map((file) => ({
    href: `${folder}${file}`,
    as: 'script',
    crossOrigin: null,
    integrity: null,
  })),
];

describe('preloading the route’s remote from the first script', () => {
  it('preloads the code of the version this visitor will get', async () => {
    localStorage.setItem(VISITOR_ID_KEY, 'visitor-0001');
    const isCanary = cohortOf('anon:visitor-0001') < 50;
    const expected = isCanary ? canary : stable;
    expect(await run('/research-center')).toEqual(codeIn(expected, isCanary ? CANARY_DIGEST : STABLE_DIGEST));
    expect(vi.mocked(fetch).mock.calls.map(([url]) => String(url))).toContain(`${expected}mf-manifest.json`);
  });

  it('uses a member’s remembered id, like the shell', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem(USER_ID_KEY, '7');
    const expected = cohortOf('user:7') < 50 ? canary : stable;
    expect((await run('/post/12'))[0]?.href).toBe(`${expected}remoteEntry.js`);
  });

  it('waits for the shell where the choice is not known yet, and for paths no remote owns', async () => {
    localStorage.setItem('token', 'tok'); // a member on a new device: their id is not known here yet
    expect(await run('/research-center')).toEqual([]);
    localStorage.clear();
    localStorage.setItem('rollout-preview', 'tok.sig');
    expect(await run('/research-center')).toEqual([]);
    localStorage.clear();
    expect(await run('/no-such-page')).toEqual([]);
  });

  it('preloads from the config.json address when the remote is not in the manifest', async () => {
    files['/config.json'] = {
      ...(files['/config.json'] as object),
      remotes: { mf_account: { url: 'http://localhost:3001/mf-manifest.json' } },
    };
    expect((await run('/login'))[0]?.href).toBe('http://localhost:3001/remoteEntry.js');
  });
});

describe('with the plan the edge wrote into the page', () => {
  const block = (choice: object) =>
    `<script type="application/json" id="page-plan">${JSON.stringify({ plan: { mf_research: choice } })}</script>`;

  it("preloads a released version's code from its manifest (requested by the HTML), asking nothing else", async () => {
    document.body.innerHTML = block({
      entry: `${canary}mf-manifest.json`,
      version: '1.1.0-bbbbbbbbbb',
      integrity: CANARY_DIGEST,
    });
    try {
      expect(await run('/research-center')).toEqual(codeIn(canary, CANARY_DIGEST));
      expect(vi.mocked(fetch).mock.calls.map(([url]) => String(url))).toEqual([`${canary}mf-manifest.json`]);
    } finally {
      document.body.innerHTML = '';
    }
  });

  it('preloads a remote served from its config.json address, without reading config or manifest', async () => {
    document.body.innerHTML = block({ entry: `${origin}/mf-manifest.json`, version: null, integrity: null });
    try {
      expect((await run('/research-center'))[0]?.href).toBe(`${origin}/remoteEntry.js`);
      expect(vi.mocked(fetch).mock.calls.map(([url]) => String(url))).toEqual([`${origin}/mf-manifest.json`]);
    } finally {
      document.body.innerHTML = '';
    }
  });
});
