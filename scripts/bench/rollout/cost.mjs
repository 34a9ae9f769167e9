// What the health signals cost the page, for `pnpm bench:rollout --cost` (scripts/bench-rollout.mjs): in
// Debian's Chromium (Playwright of the e2e package, e2e/support/chromium.mjs), fresh contexts open `/`, wait
// for the load and 2 s (the shell loads the web-vitals chunk when the page is idle), click the page's h1 (an
// interaction, for INP) and then play a tab switch (visibilityState 'hidden' + a visibilitychange event), on
// which the shell sends its report. Read from the page: the performance.measure entries the shell records
// (shell/src/rollout/health-watch.ts, health.ts, web-vitals.ts): 'health:start' (error listeners and the hide
// listener), 'health:web-vitals' (registering the three observers, after the chunk has loaded),
// 'health:report' (building and handing over the beacon, detail.bytes); and the web-vitals chunk's Resource
// Timing sizes. The chunk is requested again from Node with Accept-Encoding: gzip for its gzip size.
// A measure that is missing is reported as missing (null), with the reason, never estimated.
import { createRequire } from 'node:module';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from 'e2e/chromium';
import { ROOT } from '../../apps.mjs';
import { request } from './client.mjs';

const MEASURES = ['health:start', 'health:web-vitals', 'health:report'];

async function onePage(browser, baseUrl) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const beacons = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/api/rollout/health'))
      beacons.push(r.postData() ?? '');
  });
  try {
    await page.goto(`${baseUrl}/`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForTimeout(2000);
    const heading = page.getByRole('heading', { level: 1 }).first();
    const clicked = await heading
      .click({ timeout: 5000 })
      .then(() => true)
      .catch(() => false);
    await page.waitForTimeout(500);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForTimeout(500);
    const found = await page.evaluate((names) => {
      const measures = Object.fromEntries(
        names.map((name) => [
          name,
          performance.getEntriesByName(name).map((e) => ({ duration: e.duration, detail: e.detail ?? null })),
        ]),
      );
      const chunks = performance
        .getEntriesByType('resource')
        .filter((r) => /web-vitals/.test(r.name))
        .map((r) => ({
          url: r.name,
          encodedBodySize: r.encodedBodySize,
          decodedBodySize: r.decodedBodySize,
          transferSize: r.transferSize,
        }));
      const plan = document.getElementById('page-plan');
      return {
        measures,
        chunks,
        hasPlan: !!plan,
        hasTicket: !!(plan && JSON.parse(plan.textContent).health),
      };
    }, MEASURES);
    const kinds = beacons.flatMap((b) => {
      try {
        return JSON.parse(b).events.map((e) => e.kind);
      } catch {
        return [];
      }
    });
    return { clicked, beacons: beacons.map((b) => b.length), kinds: [...new Set(kinds)], ...found };
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const xs = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!xs.length) return null;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
};

/** Why a measure can be missing, from what the page had. */
function whyMissing(name, runs) {
  if (!runs.some((r) => r.hasPlan)) return 'the page has no page-plan block (not served by the edge?)';
  if (!runs.some((r) => r.hasTicket)) return 'the page has no health ticket: the shell watches nothing';
  if (name === 'health:web-vitals' && !runs.some((r) => r.chunks.length))
    return 'the web-vitals chunk was never loaded (no route match, or no idle time before the hide)';
  if (name === 'health:report' && !runs.some((r) => r.beacons.length))
    return 'no report was sent on hide (an empty queue sends nothing)';
  return 'the shell recorded no such performance.measure (an older shell build?)';
}

/** `runs` fresh page views; medians of each figure, and every run's raw figures. */
export async function measureCost({ baseUrl, runs = 3, log, closers }) {
  const { chromium } = createRequire(path.join(ROOT, 'e2e', 'package.json'))('@playwright/test');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const close = () => browser.close().catch(() => {});
  closers.add(close);
  const raw = [];
  try {
    for (let i = 0; i < runs; i++) {
      const r = await onePage(browser, baseUrl);
      raw.push(r);
      const ms = (name) => r.measures[name].map((e) => e.duration.toFixed(2)).join('+') || '-';
      log(
        `cost ${i + 1}/${runs}: start ${ms('health:start')} ms, web-vitals ${ms('health:web-vitals')} ms, ` +
          `report ${ms('health:report')} ms; beacon ${r.beacons.join('+') || '-'} B [${r.kinds.join(', ')}]; ` +
          `chunk ${r.chunks.map((c) => `${c.encodedBodySize} B`).join(', ') || '-'}${r.clicked ? '' : ' (h1 not clicked)'}`,
      );
    }
  } finally {
    closers.delete(close);
    await close();
  }
  const figure = (name, pick) => {
    const values = raw.map((r) => {
      const entries = r.measures[name];
      return entries.length ? pick(entries) : null;
    });
    const value = median(values);
    return value === null
      ? { value: null, why: whyMissing(name, raw) }
      : { value, n: values.filter((v) => v !== null).length };
  };
  const sum = (entries) => entries.reduce((s, e) => s + e.duration, 0);
  const chunkUrl = raw.flatMap((r) => r.chunks.map((c) => c.url))[0] ?? null;
  let gzip = null;
  if (chunkUrl) {
    const response = await request(chunkUrl, { headers: { 'accept-encoding': 'gzip' } });
    gzip = { bytes: response.bytes, encoding: response.headers['content-encoding'] ?? 'identity' };
  }
  return {
    runs: raw.length,
    startMs: figure('health:start', sum),
    webVitalsMs: figure('health:web-vitals', sum),
    reportMs: figure('health:report', sum),
    reportBytes: figure('health:report', (entries) =>
      entries.reduce((s, e) => s + (e.detail?.bytes ?? 0), 0),
    ),
    beaconBytes: median(raw.map((r) => (r.beacons.length ? r.beacons.reduce((s, b) => s + b, 0) : null))),
    reportKinds: [...new Set(raw.flatMap((r) => r.kinds))],
    chunk: chunkUrl
      ? {
          url: chunkUrl,
          encodedBodySize: median(raw.flatMap((r) => r.chunks.map((c) => c.encodedBodySize))),
          decodedBodySize: median(raw.flatMap((r) => r.chunks.map((c) => c.decodedBodySize))),
          gzip,
        }
      : { value: null, why: whyMissing('health:web-vitals', raw) },
    raw,
  };
}
