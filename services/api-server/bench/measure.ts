/** The API as a child process, autocannon runs against it and the figures the table prints. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const DURATION = Number(process.env.BENCH_DURATION ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The API measured: this package, or another checkout's (BENCH_API_DIR, e.g. main's, for a "before"). */
export const API_DIR = {
  dir: path.resolve(process.env.BENCH_API_DIR ?? pkgDir),
  custom: process.env.BENCH_API_DIR !== undefined,
};

export interface Figure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The time one GET takes, or Infinity when it takes longer than `ms`. */
export async function probe(url: string, ms: number): Promise<number> {
  const started = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(ms) });
    await res.arrayBuffer();
    return res.ok ? performance.now() - started : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

let built = false;
/** The API's bundle (build.mjs, dist/main.mjs), built once per benchmark run: the API runs as production does. */
function bundle(): string {
  if (!built) {
    const r = spawnSync(process.execPath, ['build.mjs'], { cwd: API_DIR.dir, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`the API in ${API_DIR.dir} did not build`);
    built = true;
  }
  return 'dist/main.mjs';
}

export class ApiProcess {
  base = '';
  private child: ChildProcess | null = null;

  constructor(
    private readonly dbPath: string,
    private readonly env: Record<string, string> = {},
  ) {}

  async start() {
    const port = await freePort();
    this.base = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [bundle()], {
      cwd: API_DIR.dir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_PATH: this.dbPath,
        LOG_LEVEL: 'silent',
        REQUIRES_ACTIVATION: 'false',
        LIST_CACHE_SIZE: '0', // the issue's figures are with the list cache off
        ...this.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      if (Number.isFinite(await probe(`${this.base}/api/health`, 1000))) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the API did not start within 120 s');
  }

  /**
   * A server still working through the queue of a finished run would skew the next one: when /api/health
   * does not answer within 200 ms it is killed and started again (the data is on disk, WAL-safe).
   */
  async settle(): Promise<boolean> {
    if ((await probe(`${this.base}/api/health`, 200)) < 200) return false;
    await this.stop('SIGKILL');
    await this.start();
    return true;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM') {
    const child = this.child;
    // A child killed by a signal keeps exitCode null (signalCode is set): waiting for 'exit' again would never end.
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}

export function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, timeout: 10, ...opts }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}

export function figure(r: autocannon.Result): Figure {
  return {
    rps: Math.round(r.requests.average * 10) / 10,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
    total: r.requests.total,
  };
}

export function formatFigure(f: Figure | undefined): string {
  if (!f) return '—';
  if (f.total === 0) return `no answer within the ${DURATION} s run`;
  const rps = f.rps >= 100 ? Math.round(f.rps).toLocaleString('en') : String(f.rps);
  return `${rps} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms${f.errors ? `, ${f.errors} errors` : ''}`;
}

/**
 * A bench user through the API's own routes: registered (201 expected), then `beforeLogin` (e.g. the admin
 * role written beside it), then signed in. The bearer header to send with each request.
 */
/** Every bench user's password. */
export const BENCH_PASSWORD = 'BenchPass123';

export async function benchUser(
  base: string,
  who: { username: string; email: string; first?: string; last?: string },
  beforeLogin: () => void = () => {},
): Promise<Record<string, string>> {
  const password = BENCH_PASSWORD;
  const post = (p: string, body: unknown) =>
    fetch(`${base}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const reg = await post('/api/register', {
    username: who.username,
    password,
    name: { first: who.first ?? 'Bench', last: who.last ?? 'Member' },
    email: who.email,
    address: { street: 'Benchmark Road 1', city: '', postal_code: '', country: '' },
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  beforeLogin();
  const res = await post('/api/login', { username: who.email, password });
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}
