// The API's Prometheus metrics (issue 48; every name and label in docs/operations.md, "Metrics"), served
// at GET /metrics on the instance's own port (src/http-metrics.ts, @app/server-metrics). Every label comes
// from a closed set: route templates (hono's registered paths, or 'unmatched'), methods, status classes,
// refusal reasons, the outbox's states and DEPLOY_ENVIRONMENTS. No label names the instance: Prometheus
// adds `instance` to what it scrapes.
import { HEALTH_REFUSALS } from '@app/contracts';
import { GATE_ANSWERS, type RolloutGate } from '@app/contracts/rollouts-admin';
import { LATENCY_BUCKETS, methodLabel, serviceRegistry, statusClass } from '@app/server-metrics';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AppContext } from './context';
import { poolStats } from './db/postgres';
import type { ReportOutcome } from './services/rollout';

/** The route label of a request no route matched (any path, so never the path itself). */
export const UNMATCHED = 'unmatched';

/**
 * A scrape reads the outbox and the deployments' revisions from the database: bounded like readiness's
 * query, so a database that hangs costs the scrape a second and those gauges (left without samples), never
 * the scrape itself (Prometheus would report the instance as down).
 */
const SCRAPE_QUERY_MS = 1000;

/** The outbox's states that are still work (sent mail is history, and grows without end). */
const OUTBOX_STATES = ['pending', 'sending', 'failed'] as const;

export interface ApiMetrics {
  readonly registry: Registry;
  /** One answered request: its route template (never the path), method, status and seconds taken. */
  request(route: string, method: string | undefined, status: number, seconds: number): void;
}

export interface ApiMetricsOptions {
  /** prom-client's process metrics (CPU, memory, event loop lag, GC): main.ts turns them on. */
  processMetrics: boolean;
  /** Deployment feed requests this instance holds now. */
  feedWaiting: () => number;
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function apiMetrics(ctx: AppContext, o: ApiMetricsOptions): ApiMetrics {
  const registry = serviceRegistry({ service: 'api', processMetrics: o.processMetrics });
  const registers = [registry];

  const requests = new Counter({
    name: 'api_http_requests_total',
    help: 'Requests answered, by route template, method and status class.',
    labelNames: ['route', 'method', 'status_class'],
    registers,
  });
  const duration = new Histogram({
    name: 'api_http_request_duration_seconds',
    help: 'From the request reaching the server to the last byte of its answer, by route template and method.',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const accepted = new Counter({
    name: 'api_health_reports_accepted_total',
    help: "Browsers' health reports counted by the rollout gate.",
    registers,
  });
  const refused = new Counter({
    name: 'api_health_reports_refused_total',
    help: 'Health reports refused, by reason (docs/decisions/0027-health-gate.md).',
    labelNames: ['reason'],
    registers,
  });
  for (const reason of HEALTH_REFUSALS) refused.inc({ reason }, 0);
  ctx.rollout.onReport((outcome: ReportOutcome) => {
    if (outcome === 'accepted') accepted.inc();
    else refused.inc({ reason: outcome });
  });

  // The pool exists on PostgreSQL only. SQLite has one connection, used synchronously: nothing is ever
  // "in use" between two events or waiting for one, so these gauges are left out there.
  if (poolStats(ctx.sql)) {
    const stats = () => poolStats(ctx.sql) ?? { total: 0, idle: 0, waiting: 0, max: 0 };
    new Gauge({
      name: 'api_db_pool_connections',
      help: 'Connections of the PostgreSQL pool, in use by a query or transaction, or idle.',
      labelNames: ['state'],
      registers,
      collect() {
        const s = stats();
        this.set({ state: 'in_use' }, s.total - s.idle);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new Gauge({
      name: 'api_db_pool_waiting',
      help: 'Queries waiting for a pooled connection (each waits at most 8 s, then answers 503).',
      registers,
      collect() {
        this.set(stats().waiting);
      },
    });
    new Gauge({
      name: 'api_db_pool_max_connections',
      help: 'The most connections the pool opens.',
      registers,
      collect() {
        this.set(stats().max);
      },
    });
  }

  new Gauge({
    name: 'api_deploy_feed_waiters',
    help: "Edges' deployment feed requests (long polls) this instance holds now.",
    registers,
    collect() {
      this.set(o.feedWaiting());
    },
  });

  const environments = new Set(ctx.config.deploy.environments);
  new Gauge({
    name: 'api_deployment_revision',
    help: "Each environment's deployment revision in the database (the edges' copy: edge_deploy_feed_revision).",
    labelNames: ['environment'],
    registers,
    async collect() {
      try {
        const revisions = await within(ctx.deployments.revisions(), SCRAPE_QUERY_MS);
        this.reset();
        for (const [environment, { deployment }] of revisions) {
          if (environments.has(environment)) this.set({ environment }, deployment);
        }
      } catch {
        this.reset();
      }
    },
  });

  // The rollout gate's answer per running canary (issue 48), as `rollout status` and /admin/rollouts show
  // it: one read per scrape for both gauges below (the second collect reuses the first's, 500 ms).
  let gateRead: { at: number; gates: Promise<[string, RolloutGate[]][]> } | null = null;
  const gatesNow = () => {
    if (!gateRead || Date.now() - gateRead.at > 500) {
      const gates = within(
        Promise.all(
          [...environments].map(
            async (env) => [env, await ctx.rollout.gatesNow(env)] as [string, RolloutGate[]],
          ),
        ),
        SCRAPE_QUERY_MS,
      );
      gateRead = { at: Date.now(), gates };
    }
    return gateRead.gates;
  };
  new Gauge({
    name: 'api_rollout_gate',
    help: "The rollout gate's answer now per running canary: 1 for its answer, 0 for the others (advance, rollback, inconclusive, extending).",
    labelNames: ['environment', 'remote', 'answer'],
    registers,
    async collect() {
      try {
        const read = await gatesNow();
        this.reset();
        for (const [environment, gates] of read) {
          for (const gate of gates) {
            for (const answer of GATE_ANSWERS)
              this.set({ environment, remote: gate.remote, answer }, gate.answer === answer ? 1 : 0);
          }
        }
      } catch {
        this.reset();
      }
    },
  });
  new Gauge({
    name: 'api_rollout_canary_percent',
    help: "Each running canary's share of visitors in percent (no sample for a remote without a canary).",
    labelNames: ['environment', 'remote'],
    registers,
    async collect() {
      try {
        const read = await gatesNow();
        this.reset();
        for (const [environment, gates] of read) {
          for (const gate of gates) this.set({ environment, remote: gate.remote }, gate.percent);
        }
      } catch {
        this.reset();
      }
    },
  });

  new Gauge({
    name: 'api_outbox_mails',
    help: 'Mail in the outbox (shared by every instance) by state: pending and sending are queued, failed gave up.',
    labelNames: ['status'],
    registers,
    async collect() {
      try {
        const rows = await within(
          ctx.sql.all<{ status: string; n: number }>(
            `SELECT status, COUNT(*) AS n FROM outbox WHERE status IN (${OUTBOX_STATES.map(() => '?').join(', ')})
             GROUP BY status`,
            [...OUTBOX_STATES],
          ),
          SCRAPE_QUERY_MS,
        );
        for (const status of OUTBOX_STATES) {
          this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
        }
      } catch {
        this.reset();
      }
    },
  });

  // Each label set made once, not per request (as bounded as the series: the values are closed sets).
  const labelSets = new Map<string, { counted: Record<string, string>; timed: Record<string, string> }>();
  return {
    registry,
    request(route, method, status, seconds) {
      const m = methodLabel(method);
      const statusClassOf = statusClass(status);
      const key = `${route} ${m} ${statusClassOf}`;
      let labels = labelSets.get(key);
      if (!labels) {
        labels = { counted: { route, method: m, status_class: statusClassOf }, timed: { route, method: m } };
        labelSets.set(key, labels);
      }
      requests.inc(labels.counted);
      duration.observe(labels.timed, seconds);
    },
  };
}
