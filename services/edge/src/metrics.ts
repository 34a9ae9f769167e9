// The edge's Prometheus metrics (issue 48; every name and label in docs/operations.md, "Metrics"), served
// at GET /metrics on each listener's own port (serve.ts, @app/server-metrics): one registry per listener,
// so one scrape target is one environment. Every label comes from a closed set: the route table's paths
// (or 'unmatched'), @app/rollout's remotes and tracks (the cohort: stable, canary, preview, override,
// config), status classes, render outcomes and the versions of the deployment in use (every other
// version is 'other'). No label names the instance: Prometheus adds `instance` to what it scrapes.
import type { ServerResponse } from 'node:http';
import { findRoute } from '@app/federation';
import type { DeploymentManifest, RemotePackage, RemoteTrack } from '@app/rollout';
import { packageOf } from '@app/rollout';
import { LATENCY_BUCKETS, serviceRegistry, statusClass } from '@app/server-metrics';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { FeedStatus } from './deployment-feed';

/** The route label of a page path the route table does not have. */
export const UNMATCHED = 'unmatched';
/** The version label of a release the deployment in use does not name (a preview's, an older one). */
export const OTHER_VERSION = 'other';

/**
 * What became of a per-request render of a release (regions.ts): a page (rendered now, or the same
 * answers' render kept), a failure (the renderer did not load, threw, timed out or returned something
 * unusable), or no worker to render it now (starting, or every worker busy: the build-time picture was used).
 */
export type RenderOutcome = 'ok' | 'failed' | 'unavailable';

/** A release a page asked to render, as its labels name it. */
export interface RenderedRelease {
  remote: RemotePackage;
  version: string;
  /** The visitor's track for this remote (visitor-plan.ts): their cohort. */
  track: RemoteTrack;
}

export interface EdgeMetrics {
  readonly registry: Registry;
  /**
   * Counts and times the page `res` answers for `pathname` (by its route template) once it ends; returns
   * that template (the route table's path, or 'unmatched').
   */
  page(pathname: string, res: ServerResponse): string;
  render(release: RenderedRelease, outcome: RenderOutcome, seconds: number): void;
  /** A page view's health ticket was issued (its reports can count for the gate). */
  ticketIssued(): void;
}

export interface EdgeMetricsOptions {
  /** prom-client's process metrics (CPU, memory, event loop lag, GC): main.ts turns them on. */
  processMetrics: boolean;
  /** The deployment in use: its stable and canary versions are the version labels there are. */
  manifest: () => DeploymentManifest | null;
  /** The deployment feed's state (none: a server without a feed, tests). */
  feed?: () => FeedStatus;
}

/** Each remote's stable and canary version in `manifest`, as `remote@version`. */
function deployedVersions(manifest: DeploymentManifest | null): Set<string> {
  const versions = new Set<string>();
  for (const [remote, deployment] of Object.entries(manifest?.remotes ?? {})) {
    versions.add(`${remote}@${deployment.stable}`);
    if (deployment.canary) versions.add(`${remote}@${deployment.canary.version}`);
  }
  return versions;
}

/**
 * The version labels: those of the deployment in use, and of the one before it until the next changes
 * (a rollout's last counts of the version it replaced stay scrapeable a while); everything else is
 * 'other'. The series of a version that leaves both are removed, so a process that lives through many
 * rollouts keeps at most two deployments' versions.
 */
function versionLabels(manifest: () => DeploymentManifest | null, forget: (key: string) => void) {
  let seen: DeploymentManifest | null = null;
  let current = new Set<string>();
  let previous = new Set<string>();
  const used = new Set<string>();
  return (remote: RemotePackage, version: string): string => {
    const now = manifest();
    if (now !== seen) {
      seen = now;
      previous = current;
      current = deployedVersions(now);
      for (const key of used) {
        if (current.has(key) || previous.has(key)) continue;
        used.delete(key);
        forget(key);
      }
    }
    const key = `${remote}@${version}`;
    if (!current.has(key) && !previous.has(key)) return OTHER_VERSION;
    used.add(key);
    return version;
  };
}

const secondsSince = (iso: string | null) => (iso === null ? null : (Date.now() - Date.parse(iso)) / 1000);

export function edgeMetrics(o: EdgeMetricsOptions): EdgeMetrics {
  const registry = serviceRegistry({ service: 'edge', processMetrics: o.processMetrics });
  const registers = [registry];

  const pages = new Counter({
    name: 'edge_page_requests_total',
    help: 'Pages answered, by route template (the route table), its remote and status class.',
    labelNames: ['route', 'remote', 'status_class'],
    registers,
  });
  const pageSeconds = new Histogram({
    name: 'edge_page_duration_seconds',
    help: 'From the request reaching the edge to the last byte of its page, by route template.',
    labelNames: ['route'],
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const renders = new Counter({
    name: 'edge_renders_total',
    help: "Per-request renders of a release's first screen, by remote, version, cohort and outcome.",
    labelNames: ['remote', 'version', 'cohort', 'outcome'],
    registers,
  });
  const renderSeconds = new Histogram({
    name: 'edge_render_duration_seconds',
    help: "A render's time (the API's answers, then the release's sandboxed renderer), rendered or failed.",
    labelNames: ['remote', 'version', 'cohort'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  /** The label sets used per `remote@version`, to remove when the version is forgotten. */
  const renderLabels = new Map<string, Map<string, Record<'remote' | 'version' | 'cohort', string>>>();
  const versionOf = versionLabels(o.manifest, (key) => {
    for (const labels of renderLabels.get(key)?.values() ?? []) {
      renderSeconds.remove(labels);
      for (const outcome of ['ok', 'failed', 'unavailable'] satisfies RenderOutcome[])
        renders.remove({ ...labels, outcome });
    }
    renderLabels.delete(key);
  });

  const tickets = new Counter({
    name: 'edge_health_tickets_total',
    help: "Page views given a health ticket (their browsers' reports can count for the rollout gate).",
    registers,
  });

  const feed = o.feed;
  if (feed) {
    new Gauge({
      name: 'edge_deploy_feed_revision',
      help: 'The revision of the deployment this edge serves (none before the first; the API: api_deployment_revision).',
      labelNames: ['environment'],
      registers,
      collect() {
        const status = feed();
        this.reset();
        if (status.revision !== null) this.set({ environment: status.environment }, status.revision);
      },
    });
    new Gauge({
      name: 'edge_deploy_feed_failures',
      help: 'Failed attempts to reach the deployment feed since it last answered (0: the feed is fine).',
      labelNames: ['environment'],
      registers,
      collect() {
        const status = feed();
        this.reset();
        this.set({ environment: status.environment }, status.failures);
      },
    });
    new Gauge({
      name: 'edge_deploy_feed_seconds_since_contact',
      help: 'Seconds since the API last answered the feed (a held poll answers within ~25 s; none before the first).',
      labelNames: ['environment'],
      registers,
      collect() {
        const status = feed();
        const seconds = secondsSince(status.lastContactAt);
        this.reset();
        if (seconds !== null) this.set({ environment: status.environment }, seconds);
      },
    });
  }

  return {
    registry,
    page(pathname, res) {
      const started = performance.now();
      const entry = findRoute(pathname);
      const route = entry?.path ?? UNMATCHED;
      const remote = entry ? packageOf(entry.remote) : UNMATCHED;
      res.once('finish', () => {
        pages.inc({ route, remote, status_class: statusClass(res.statusCode) });
        pageSeconds.observe({ route }, (performance.now() - started) / 1000);
      });
      return route;
    },
    render(release, outcome, seconds) {
      const labels = {
        remote: release.remote,
        version: versionOf(release.remote, release.version),
        cohort: release.track,
      };
      renders.inc({ ...labels, outcome });
      if (outcome !== 'unavailable') renderSeconds.observe(labels, seconds);
      if (labels.version === OTHER_VERSION) return;
      const key = `${release.remote}@${release.version}`;
      const used = renderLabels.get(key) ?? new Map();
      renderLabels.set(key, used.set(release.track, labels));
    },
    ticketIssued() {
      tickets.inc();
    },
  };
}
