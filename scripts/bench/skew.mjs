// The skew run of `pnpm bench:web` (issue 30; scripts/bench-web.mjs documents it): does a canary or preview
// visitor's first screen (the region in the HTML as the server sent it) show the version their live page
// ends up with? Drives the real `pnpm release` and `pnpm rollout` of the measured checkout against the
// topology's own release store and deployment, and Playwright (the e2e package's) on Debian's Chromium.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from 'e2e/chromium';
import { ROOT } from '../apps.mjs';

const run = promisify(execFile);
const { chromium } = createRequire(path.join(ROOT, 'e2e', 'package.json'))('@playwright/test');

export const SKEW_REMOTE = 'mf-public-pages';
export const SKEW_ROUTES = ['/about', '/'];
const MARK = 'Variant: ';

// The variant build: the h1 of Home and of About start with MARK, in the built code (.js, and
// server-render.mjs where the build has one) and in the pre-rendered pages (prerender.json).
const PATCHES = [
  {
    page: 'Home',
    code: ['See the risks coming.', `${MARK}See the risks coming.`],
    html: ['>See the risks coming.', `>${MARK}See the risks coming.`],
  },
  {
    page: 'About',
    code: ['"About ",', `"${MARK}About ",`],
    html: ['>About <!-- -->', `>${MARK}About <!-- -->`],
  },
];

/** A copy of the checkout's mf-public-pages build whose Home and About h1 texts start with "Variant: ". */
export function variantBuild(root, dir) {
  const source = path.join(root, SKEW_REMOTE, 'dist');
  if (!fs.existsSync(path.join(source, 'mf-manifest.json'))) throw new Error(`no build in ${source}`);
  fs.cpSync(source, dir, { recursive: true });
  const hits = Object.fromEntries(PATCHES.map((p) => [p.page, { code: 0, prerender: 0 }]));
  for (const file of fs.readdirSync(dir)) {
    const kind = /\.m?js$/.test(file) ? 'code' : file === 'prerender.json' ? 'prerender' : null;
    if (!kind) continue;
    const full = path.join(dir, file);
    let text = fs.readFileSync(full, 'utf8');
    const before = text;
    for (const patch of PATCHES) {
      const [from, to] = kind === 'code' ? patch.code : patch.html;
      if (text.includes(from)) {
        text = text.replaceAll(from, to);
        hits[patch.page][kind] += 1;
      }
    }
    if (text !== before) fs.writeFileSync(full, text);
  }
  const hasPrerender = fs.existsSync(path.join(dir, 'prerender.json'));
  for (const [page, hit] of Object.entries(hits)) {
    if (!hit.code || (hasPrerender && !hit.prerender)) {
      throw new Error(
        `the ${page} h1 of ${source} is not where the bench patches it (scripts/bench/skew.mjs PATCHES)`,
      );
    }
  }
  return dir;
}

const decode = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
const normalize = (s) => (s ?? '').replace(/\s+/g, ' ').trim();

/**
 * The first screen in a page's HTML: the region element (`data-prerendered-region="<remote>"`, with
 * `data-version` where the server names it) and the text of its first h1; null when the page has none.
 */
export function firstScreenOf(html) {
  const start = html.search(/<div\b[^>]*\bdata-prerendered-region="/);
  if (start < 0) return null;
  const openEnd = html.indexOf('>', start) + 1;
  const open = html.slice(start, openEnd);
  // The region's end: the </div> that closes it (React's markup has no unclosed div).
  const tags = /<(\/?)div\b[^>]*>/gi;
  tags.lastIndex = start;
  let depth = 0;
  let end = html.length;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) {
      end = m.index;
      break;
    }
  }
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html.slice(openEnd, end));
  return {
    remote: /data-prerendered-region="([^"]*)"/.exec(open)?.[1] ?? null,
    version: /data-version="([^"]*)"/.exec(open)?.[1] ?? null,
    h1: h1 ? normalize(decode(h1[1].replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, ''))) : null,
  };
}

/** Which build a heading's text comes from. */
const buildOf = (text) =>
  text == null || text === '' ? 'none' : text.startsWith(MARK) ? 'variant' : 'stable';

async function command(topology, args) {
  try {
    const { stdout } = await run('pnpm', ['--silent', ...args], {
      cwd: topology.root,
      env: { ...topology.commandEnv, ROLLOUT_ACTOR: 'bench-web', LOG_LEVEL: 'silent' },
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    throw new Error(
      `pnpm ${args.join(' ')} failed (${error.code}): ${error.stderr ?? ''}${error.stdout ?? ''}`,
    );
  }
}

async function deployment(baseUrl) {
  const response = await fetch(`${baseUrl}/deployment.json`, {
    cache: 'no-store',
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`${baseUrl}/deployment.json answered ${response.status}`);
  return response.json();
}

/** Waits until the served manifest says so, then 1.5 s more: every edge sees a change within 1 s. */
async function untilServed(baseUrl, check, what) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (check((await deployment(baseUrl)).remotes?.[SKEW_REMOTE] ?? {})) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${baseUrl}/deployment.json did not show ${what} within 20 s`);
}

/** One fresh browser context opens each route (`query` appended); one record per page view. */
async function visitor(browser, baseUrl, index, query) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const reports = [];
  const warnings = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !new URL(request.url()).pathname.endsWith('/api/rollout/health'))
      return;
    try {
      reports.push(JSON.parse(request.postData() ?? ''));
    } catch {
      // not a report
    }
  });
  page.on('console', (message) => {
    if (/failed; loading the stable version/.test(message.text())) warnings.push(message.text());
  });
  const views = [];
  try {
    for (const route of SKEW_ROUTES) {
      const fromReport = reports.length;
      const fromWarning = warnings.length;
      const view = { visitor: index, route };
      views.push(view);
      try {
        const response = await page.goto(`${baseUrl}${route}${query}`, {
          waitUntil: 'load',
          timeout: 60_000,
        });
        view.status = response?.status() ?? null;
        view.url = page.url();
        view.firstScreen = firstScreenOf(response ? await response.text() : '');
        const heading = page.getByRole('heading', { level: 1 }).first();
        await heading.waitFor({ state: 'visible', timeout: 30_000 });
        // The page the visitor ends up with: after the live remote (or its fallback) has settled.
        await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
        view.live = normalize(await heading.textContent());
      } catch (error) {
        view.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
      }
      const ownReports = reports.slice(fromReport).filter((r) => r.remote === SKEW_REMOTE);
      view.loaded = ownReports.filter((r) => r.event === 'load').map((r) => `${r.track} ${r.version}`);
      view.fellBack =
        warnings.length > fromWarning ||
        ownReports.some(
          (r) => r.track !== 'stable' && (r.event === 'load-failure' || r.event === 'render-error'),
        );
      view.first = buildOf(view.firstScreen?.h1);
      view.liveBuild = buildOf(view.live);
      view.skew = view.first !== 'none' && view.liveBuild !== 'none' && view.first !== view.liveBuild;
    }
  } finally {
    await context.close();
  }
  return views;
}

function summary(label, views, visitors) {
  const byVisitor = new Map();
  for (const v of views) byVisitor.set(v.visitor, [...(byVisitor.get(v.visitor) ?? []), v]);
  const onVariant = [...byVisitor.values()].filter((vs) => vs[0]?.liveBuild === 'variant').length;
  const mixed = [...byVisitor.values()].filter((vs) => new Set(vs.map((v) => v.liveBuild)).size > 1).length;
  return {
    case: label,
    visitors,
    pageViews: views.length,
    skewed: views.filter((v) => v.skew).length,
    skewedByRoute: Object.fromEntries(
      SKEW_ROUTES.map((r) => [r, views.filter((v) => v.route === r && v.skew).length]),
    ),
    visitorsOnVariant: onVariant,
    visitorsWithTwoVersions: mixed,
    fellBack: views.filter((v) => v.fellBack).length,
    withoutFirstScreen: views.filter((v) => v.first === 'none').length,
    failed: views.filter((v) => v.error || v.liveBuild === 'none').length,
    views,
  };
}

/**
 * Releases the variant, then two cases of `visitors` fresh browsers each: a canary at 50 %, and (the canary
 * aborted) a preview link of the same version opened on each route's path. Leaves no canary behind.
 */
export async function skewRun({ topology, visitors, runDir, log, closers = new Set() }) {
  const { baseUrl } = topology;
  const before = (await deployment(baseUrl)).remotes?.[SKEW_REMOTE];
  if (before?.canary) {
    throw new Error(
      `${SKEW_REMOTE} already has a canary (${before.canary.version}): the skew run needs it free`,
    );
  }
  const dist = variantBuild(topology.root, path.join(runDir, `${SKEW_REMOTE}-variant`));
  const version = (await command(topology, ['release', SKEW_REMOTE, '--dist', dist]))
    .trim()
    .split('\n')
    .at(-1)
    .trim();
  log(`skew: variant of ${SKEW_REMOTE} released as ${version} (stable ${before?.stable ?? '-'})`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const cases = [];
  let canaryOn = false;
  const abortCanary = () => command(topology, ['rollout', 'abort', SKEW_REMOTE]);
  try {
    await command(topology, ['rollout', 'start', SKEW_REMOTE, version, '--percent', '50']);
    canaryOn = true;
    closers.add(abortCanary);
    await untilServed(baseUrl, (r) => r.canary?.version === version, 'the canary');
    cases.push(await runCase(browser, baseUrl, visitors, '', 'canary 50 %', log));
    closers.delete(abortCanary);
    await abortCanary();
    canaryOn = false;
    await untilServed(baseUrl, (r) => !r.canary, 'the canary aborted');

    const link = await command(topology, [
      'rollout',
      'preview',
      SKEW_REMOTE,
      version,
      '--hours',
      '1',
      '--base-url',
      baseUrl,
    ]);
    const token = /[?&]preview=([^\s&#]+)/.exec(link)?.[1];
    if (!token) throw new Error(`no preview link in: ${link}`);
    cases.push(await runCase(browser, baseUrl, visitors, `?preview=${token}`, 'preview', log));
  } finally {
    closers.delete(abortCanary);
    await browser.close();
    if (canaryOn) {
      await abortCanary().catch((error) => log(`could not abort the canary: ${error.message}`));
    }
  }
  return {
    remote: SKEW_REMOTE,
    routes: SKEW_ROUTES,
    variant: version,
    stable: before?.stable ?? null,
    cases,
  };
}

async function runCase(browser, baseUrl, count, query, label, log) {
  const views = [];
  for (let i = 0; i < count; i++) {
    const mine = await visitor(browser, baseUrl, i, query);
    views.push(...mine);
    const line = mine.map(
      (v) => `${v.route} ${v.first}->${v.error ? 'error' : v.liveBuild}${v.skew ? ' SKEW' : ''}`,
    );
    log(`skew ${label} ${i + 1}/${count}: ${line.join(', ')}`);
  }
  return summary(label, views, count);
}

/** The lines the bench prints for the skew run. */
export function skewLines(skew) {
  const lines = [];
  for (const c of skew.cases) {
    const got = c.case === 'preview' ? 'the preview' : 'the canary';
    lines.push(`skew (${c.case}): ${c.skewed} of ${c.pageViews} page views painted another version first`);
    lines.push(
      `  ${c.visitors} visitors (${SKEW_ROUTES.join(' then ')}): ${c.visitorsOnVariant} got ${got}; ` +
        `${c.fellBack} page views fell back; ${c.withoutFirstScreen} had no first screen in the HTML` +
        `${c.failed ? `; ${c.failed} failed (no live h1)` : ''}` +
        `${c.visitorsWithTwoVersions ? `; ${c.visitorsWithTwoVersions} visitors saw both versions live` : ''}`,
    );
  }
  return lines;
}
