/**
 * pnpm bench:api --cluster (issue 12): the same rows as the API benchmark, through nginx: one API instance on
 * SQLite, one on PostgreSQL and two on the same PostgreSQL database, so both the database's cost and the
 * scaling are measured ratios. Uses the cluster of `pnpm start:cluster` (scripts/cluster/cluster.mjs: needs
 * Debian's nginx and PostgreSQL and the builds, which it makes when missing) on ports of its own, a fresh
 * demo database each time, rate limits and the list cache off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchUser, CONNECTIONS, cannon, DURATION, type Figure, figure, formatFigure } from './measure';
import { SCENARIOS, type Target } from './scenarios';

interface Cluster {
  origin: string;
  stop: () => void;
}
type StartCluster = (o: {
  port: number;
  apiPorts: number[];
  edgePorts: number[];
  runDir: string;
  quiet: boolean;
  env: Record<string, string>;
  database: 'sqlite' | 'postgres';
  pgDir: string;
  pgPort: number;
  freshDatabase: boolean;
}) => Promise<Cluster>;

/** The topologies measured, each from a fresh database. */
const TOPOLOGIES = [
  { label: 'SQLite, one instance', database: 'sqlite', apiPorts: [4301] },
  { label: 'PostgreSQL, one instance', database: 'postgres', apiPorts: [4301] },
  { label: 'PostgreSQL, two instances', database: 'postgres', apiPorts: [4301, 4302] },
] as const;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The rows that read and write as visitors do; the stall rows need no nginx to tell their story. */
const ROWS = ['home', 'explore', 'single', 'searchRare', 'searchCommon', 'mixed'];

function member(base: string): Promise<Record<string, string>> {
  const id = Date.now().toString(36);
  return benchUser(base, { username: `bench_${id}`, email: `bench-${id}@example.com` });
}

async function target(base: string): Promise<Target> {
  const auth = await member(base);
  const list = (await (await fetch(`${base}/api/posts?limit=50`)).json()) as { id: number; slug: string }[];
  return {
    base,
    auth,
    ids: list.map((p) => p.id),
    slugs: list.map((p) => p.slug),
    deepPath: '',
    deepKind: '',
  };
}

export async function benchCluster(): Promise<void> {
  const modulePath = path.join(repoRoot, 'scripts', 'cluster', 'cluster.mjs');
  const { startCluster } = (await import(modulePath)) as { startCluster: StartCluster };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-'));
  fs.chmodSync(work, 0o755); // nginx's workers read the release store in here
  process.env.RELEASE_STORE_DIR = path.join(work, 'releases');
  process.env.DEPLOY_DIR = path.join(work, 'deploy');
  const results: Record<string, Record<string, Figure>> = {};
  try {
    for (const { label, database, apiPorts } of TOPOLOGIES) {
      // A fresh SQLite file per topology too.
      process.env.DB_PATH = path.join(work, `bench-${label.replace(/\W+/g, '-')}.db`);
      const cluster = await startCluster({
        port: 8380,
        apiPorts: [...apiPorts],
        edgePorts: [8391, 8392],
        runDir: path.join(work, 'run'),
        quiet: true,
        database,
        pgDir: path.join(work, 'postgres'),
        pgPort: 5443,
        freshDatabase: true,
        // SEED_DEMO: the demo posts the scenarios read (the cluster seeds none unless asked).
        env: {
          RATE_LIMITS: 'off',
          LIST_CACHE_SIZE: '0',
          REQUIRES_ACTIVATION: 'false',
          LOG_LEVEL: 'silent',
          SEED_DEMO: 'true',
        },
      });
      try {
        const t = await target(cluster.origin);
        await cannon({ url: `${cluster.origin}/api/posts?limit=6`, duration: 2, connections: 10 }); // warm-up
        results[label] = {};
        for (const s of SCENARIOS.filter((row) => ROWS.includes(row.key))) {
          const { path: p, ...opts } = s.opts(t);
          const r = figure(await cannon({ url: `${cluster.origin}${p ?? '/'}`, ...opts }));
          results[label][s.key] = r;
          console.log(`[${label}] ${s.label}: ${formatFigure(r)}`);
        }
      } finally {
        cluster.stop();
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `\nThrough nginx, ${CONNECTIONS} connections, ${DURATION} s per row, ${os.cpus().length} CPUs shared by autocannon, nginx, the instances and PostgreSQL; demo content, list cache and rate limits off`,
  );
  const [sqlite, pgOne, pgTwo] = [TOPOLOGIES[0].label, TOPOLOGIES[1].label, TOPOLOGIES[2].label];
  const ratio = (a?: Figure, b?: Figure) => (a && b && a.rps > 0 ? `${(b.rps / a.rps).toFixed(2)}x` : '—');
  console.log(`| call | ${sqlite} | ${pgOne} | ${pgTwo} | PostgreSQL / SQLite | two / one |`);
  console.log('|---|---|---|---|---|---|');
  for (const s of SCENARIOS.filter((row) => ROWS.includes(row.key))) {
    const [a, b, c] = [sqlite, pgOne, pgTwo].map((label) => results[label]?.[s.key]);
    console.log(
      `| ${s.label} | ${formatFigure(a)} | ${formatFigure(b)} | ${formatFigure(c)} | ${ratio(a, b)} | ${ratio(b, c)} |`,
    );
  }
  const out = path.join(repoRoot, 'bench-results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `api-cluster-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify({ connections: CONNECTIONS, duration: DURATION, results }, null, 2));
  console.log(`\nJSON: ${path.relative(repoRoot, file)}`);
}
