// The load generator of `pnpm bench:rollout` (scripts/bench-rollout.mjs): visitors of `/` who speak the
// shell's protocol. Each page view is a GET of the page from the edge (which picks the visitor's version of
// mf-public-pages from their cohort and signs a ticket for it) and one health report with that ticket, on the
// version the page was served: load (ms), LCP and INP (ms), CLS, and a runtime error when the version's
// behaviour says so. What a version "feels like" is a profile the scenario assigns to its version id; the
// generator never tells the gate anything a real page could not (it only knows what the page told it).
//
// Visitors: most sessions are a new visitor (no cookie: the edge gives them a key and a cohort), the rest a
// returning one (a cookie from a pool of earlier visitors) who views the page 2-3 times. `concurrency`
// sessions run at once, as fast as the machine serves them.
import { createHash } from 'node:crypto';
import { pageView, sendReport, visitorKeyOf } from './client.mjs';

export const REMOTE = 'mf-public-pages';
const CONTAINER = 'mf_public_pages';

/**
 * Stable's behaviour, and the canaries' as changes to it. Web Vitals per page view: LCP and INP lognormal
 * (median, sigma), CLS uniform in a range; `errorRate`: page views with a runtime error; `throwShare`: the
 * visitors (a fixed set, by a hash of their key independent of their cohort) whose every page view has one;
 * `inpFactor` multiplies INP.
 */
export const STABLE = {
  loadMs: [300, 0.35],
  lcpMs: [1200, 0.4],
  inpMs: [120, 0.5],
  cls: [0.02, 0.05],
  errorRate: 0.005,
  throwShare: 0,
  inpFactor: 1,
};
export const PROFILES = {
  stable: { name: 'stable', ...STABLE },
  healthy: { name: 'healthy', ...STABLE },
  throws: { name: 'throws for 5 % of visitors', ...STABLE, throwShare: 0.05 },
  slowInp: { name: 'INP twice stable’s', ...STABLE, inpFactor: 2 },
};

const NEW_SHARE = 0.85;
const POOL_SIZE = 3000;

function normal() {
  let u = 0;
  while (u === 0) u = Math.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
}
const lognormal = ([median, sigma]) => median * Math.exp(sigma * normal());

/** Whether a visitor is one of the `share` whose page views all throw: a hash of their key, not their cohort. */
export function throwsFor(visitorKey, share) {
  if (share <= 0) return false;
  const h = createHash('sha256').update(`bench-rollout throws\n${visitorKey}`).digest().readUInt32BE(0);
  return h / 2 ** 32 < share;
}

/** What one page view of `version` reports, as the shell would queue it (shell/src/rollout/health.ts). */
export function pageViewEvents(version, profile, visitorKey) {
  const event = (kind, value) => ({
    remote: REMOTE,
    version,
    kind,
    ...(value === undefined ? {} : { value }),
  });
  const events = [
    event('load', Math.round(lognormal(profile.loadMs))),
    event('lcp', Math.round(lognormal(profile.lcpMs))),
    event('inp', Math.round(lognormal(profile.inpMs) * profile.inpFactor)),
    event(
      'cls',
      Math.round((profile.cls[0] + Math.random() * (profile.cls[1] - profile.cls[0])) * 10_000) / 10_000,
    ),
  ];
  if (throwsFor(visitorKey, profile.throwShare) || Math.random() < profile.errorRate)
    events.push(event('runtime-error'));
  return events;
}

function emptyStats() {
  return { pageViews: 0, reports: {}, refusals: {}, failures: 0, lastFailure: null, byVersion: new Map() };
}

/**
 * Visitors of `url` until stopped. `profileOf(version)` says how a served version behaves (unknown
 * versions behave like stable).
 */
export class LoadGenerator {
  /** @param {{ url: string, concurrency: number, profileOf: (version: string) => object, log: (line: string) => void }} o */
  constructor({ url, concurrency, profileOf, log }) {
    this.url = url;
    this.concurrency = concurrency;
    this.profileOf = profileOf;
    this.log = log;
    /** Visitors to come back: { cookie, address }. */
    this.pool = [];
    /** New visitors so far: each gets the next address. */
    this.addresses = 0;
    this.running = null;
    this.stats = emptyStats();
  }

  /** Counters since the last reset: per version, page views and distinct visitors; reports by status. */
  reset() {
    this.stats = emptyStats();
  }

  versionStats(version) {
    let s = this.stats.byVersion.get(version);
    if (!s) {
      s = { pageViews: 0, visitors: new Set(), errorViews: 0 };
      this.stats.byVersion.set(version, s);
    }
    return s;
  }

  start() {
    if (this.running) return;
    this.stopping = false;
    this.running = Promise.all(Array.from({ length: this.concurrency }, () => this.worker()));
  }

  async stop() {
    this.stopping = true;
    await this.running;
    this.running = null;
  }

  async worker() {
    while (!this.stopping) {
      try {
        if (this.pool.length < 50 || Math.random() < NEW_SHARE) {
          // A new visitor from an address of its own (198.18.0.0/15, the benchmarking range).
          this.addresses += 1;
          const address = `198.18.${(this.addresses >> 8) & 255}.${this.addresses & 255}`;
          const visitor = { cookie: await this.view(null, address), address };
          if (this.pool.length < POOL_SIZE) this.pool.push(visitor);
          else this.pool[Math.floor(Math.random() * POOL_SIZE)] = visitor;
        } else {
          const visitor = this.pool[Math.floor(Math.random() * this.pool.length)];
          const views = 2 + Math.floor(Math.random() * 2);
          for (let i = 0; i < views && !this.stopping; i++) await this.view(visitor.cookie, visitor.address);
        }
      } catch (error) {
        this.stats.failures += 1;
        this.stats.lastFailure = error.message;
        if (this.stats.failures === 1 || this.stats.failures % 100 === 0)
          this.log(`visitors: ${this.stats.failures} failed page views, the last: ${error.message}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /** One page view and its report; returns the visitor's cookie. */
  async view(cookie, address) {
    const page = await pageView(this.url, cookie, address);
    const choice = page.plan.plan?.[CONTAINER];
    if (!choice?.version) throw new Error(`the page's plan has no released version of ${REMOTE}`);
    if (!page.ticket) throw new Error('the page has no health ticket');
    const key = visitorKeyOf(page.cookie);
    const events = pageViewEvents(choice.version, this.profileOf(choice.version), key);
    const stats = this.stats;
    stats.pageViews += 1;
    const mine = this.versionStats(choice.version);
    mine.pageViews += 1;
    mine.visitors.add(key);
    if (events.some((e) => e.kind === 'runtime-error')) mine.errorViews += 1;
    const { status, error } = await sendReport(page.apiBaseUrl, { ticket: page.ticket, events });
    stats.reports[status] = (stats.reports[status] ?? 0) + 1;
    if (error) {
      stats.refusals[error] = (stats.refusals[error] ?? 0) + 1;
      if (stats.refusals[error] === 1)
        this.log(`visitors: a real page view's report was refused (${status}): ${error}`);
    }
    return page.cookie;
  }
}
