// Lighthouse 12 through its Node API against a Chromium that chrome-launcher started (scripts/bench-web.mjs
// documents the settings).
import lighthouse, { desktopConfig } from 'lighthouse';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
export const FIGURES = ['perf', 'a11y', 'bp', 'seo', 'fcp', 'lcp', 'tbt', 'cls', 'si'];

// Lighthouse now and then loses the trace of a load (NO_NAVSTART): a broken measurement, not a slow page.
const TRANSIENT_LIGHTHOUSE_ERRORS = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED', 'PROTOCOL_TIMEOUT']);

/** One run of `preset` ('mobile' | 'desktop'), measured again (at most twice) after a transient error. */
export async function lighthouseRun(url, port, preset, log, attempt = 1) {
  try {
    return await lighthouseOnce(url, port, preset);
  } catch (error) {
    if (attempt >= 3 || !TRANSIENT_LIGHTHOUSE_ERRORS.has(error.code)) throw error;
    log(`${url} ${preset}: ${error.code}, measuring again`);
    return lighthouseRun(url, port, preset, log, attempt + 1);
  }
}

async function lighthouseOnce(url, port, preset) {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      skipAudits: ['bf-cache'],
      disableFullPageScreenshot: true,
    },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  const { categories, audits, runWarnings, runtimeError } = result.lhr;
  if (runtimeError) {
    throw Object.assign(new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`), {
      code: runtimeError.code,
    });
  }
  const score = (id) => (categories[id]?.score == null ? null : Math.round(categories[id].score * 100));
  const failing = [];
  for (const id of CATEGORIES.slice(1))
    for (const ref of categories[id]?.auditRefs ?? [])
      if (ref.weight > 0 && audits[ref.id]?.score !== null && audits[ref.id]?.score < 1)
        failing.push(`${id}:${ref.id}`);
  return {
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    seo: score('seo'),
    fcp: audits['first-contentful-paint']?.numericValue,
    lcp: audits['largest-contentful-paint']?.numericValue,
    tbt: audits['total-blocking-time']?.numericValue,
    cls: audits['cumulative-layout-shift']?.numericValue,
    si: audits['speed-index']?.numericValue,
    failing,
    warnings: runWarnings,
  };
}

export function median(values) {
  const v = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Each figure's median over the runs, taken on its own. */
export function medians(runs) {
  return Object.fromEntries(FIGURES.map((k) => [k, median(runs.map((x) => x[k]))]));
}
