// The edge's render workers (docs/decisions/0036-render-sandbox.md): one sandboxed process per release that
// ships a server renderer, started when a page or the deployment first needs it, asked one request at a
// time, killed when a request outlives its budget, when it answers more than the edge reads, or after it has
// sat idle; at most `maxWorkers` at once (the least recently used goes first). A worker that dies or hangs is
// started again only after a pause that doubles with each consecutive failure, so a release that crashes on
// every page costs a process start a minute, not one a page.
import { type ChildProcess, spawn } from 'node:child_process';
import { type Isolation, launchPlan, probeIsolation, type SandboxLimits } from './launch';
import { ANSWER_FD, lineReader, MAX_ANSWER_BYTES, type WorkerAnswer, type WorkerRequest } from './protocol';

export interface SandboxedRelease {
  remote: string;
  version: string;
  /** The release's folder in the store: the only one its worker may read. */
  folder: string;
  /** Its server-render.mjs, inside that folder. */
  rendererFile: string;
}

/**
 * ok: the worker answered. failed: the release's code failed (threw, hung, died, answered too much, or is
 * pausing or starting again after such a failure): logged and counted against that version. unavailable:
 * nothing the release did (its first start, too many requests waiting): the page just goes without.
 */
export type CallResult =
  | { status: 'ok'; value: unknown }
  | { status: 'failed'; reason: string; stage: 'start' | 'render' }
  | { status: 'unavailable'; reason: string };

export interface PoolOptions {
  /** The compiled worker (dist/render-worker.mjs). */
  workerScript: string;
  limits: SandboxLimits;
  /** A request's budget once the worker has it; past it the worker is killed. */
  timeoutMs: number;
  /** How long a new worker may take to load its renderer. */
  startTimeoutMs: number;
  maxWorkers: number;
  /** A worker unused this long is stopped. */
  idleMs: number;
  /** Requests waiting for one worker beyond this are answered `unavailable` at once. */
  maxQueue?: number;
  /** What a worker prints (its release's console), one line at a time, already bounded. */
  log?: (release: SandboxedRelease, line: string) => void;
  isolation?: Isolation;
  now?: () => number;
}

const MAX_BACKOFF_MS = 60_000;
const FIRST_BACKOFF_MS = 5000;
/** What one worker may print before the edge stops forwarding it (a release's console is not a log flood). */
const MAX_LOG_LINES = 200;
const MAX_LOG_LINE = 1000;

interface Pending {
  request: WorkerRequest;
  resolve: (result: CallResult) => void;
}

interface Worker {
  release: SandboxedRelease;
  child: ChildProcess;
  state: 'starting' | 'ready' | 'dead';
  ready: Promise<boolean>;
  markReady: (ok: boolean) => void;
  queue: Pending[];
  inFlight: (Pending & { timer: NodeJS.Timeout }) | null;
  lastUsed: number;
  idleTimer: NodeJS.Timeout | null;
  startedAt: number;
  renders: number;
  logLines: number;
  /** Why it ended, once it has. */
  endReason: string | null;
}

interface History {
  failures: number;
  retryAt: number;
  lastError: string | null;
  /** Whether the last failure was its renderer not loading, or a render. */
  stage: 'start' | 'render';
}

export interface WorkerStatus {
  remote: string;
  version: string;
  pid: number | null;
  state: Worker['state'];
  /** A request is in the worker now. */
  busy: boolean;
  startedAt: string;
  renders: number;
}

export class RenderPool {
  private readonly workers = new Map<string, Worker>();
  private readonly history = new Map<string, History>();
  private nextId = 1;
  readonly isolation: Isolation;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly o: PoolOptions) {
    this.isolation = o.isolation ?? probeIsolation();
    this.now = o.now ?? Date.now;
  }

  /** Starts the release's worker ahead of its first page (a new stable or canary). */
  prewarm(release: SandboxedRelease): void {
    if (!this.workers.has(release.folder) && !this.pausing(release)) this.start(release);
  }

  /**
   * One request to the release's worker, started if needed. `readyWithinMs`: how long this caller may wait
   * for a worker that is still starting (a page does not wait out a cold start; the next page gets it).
   */
  async call(
    release: SandboxedRelease,
    request:
      | { op: 'requests'; path: string }
      | { op: 'render'; path: string; primed: Record<string, unknown> },
    readyWithinMs: number,
  ): Promise<CallResult> {
    if (this.closed) return { status: 'unavailable', reason: 'the edge is stopping' };
    let worker = this.workers.get(release.folder);
    if (!worker) {
      const pause = this.pausing(release);
      if (pause) return { status: 'failed', reason: pause.reason, stage: pause.stage };
      worker = this.start(release);
    }
    worker.lastUsed = this.now();
    if (worker.state === 'starting') {
      let timer: NodeJS.Timeout | undefined;
      const ready = await Promise.race([
        worker.ready,
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), readyWithinMs);
        }),
      ]);
      clearTimeout(timer);
      if (ready === null) {
        // A release starting again after it failed is still failing its visitors until it renders.
        const past = this.history.get(release.folder);
        return past
          ? { status: 'failed', reason: `starting again after: ${past.lastError}`, stage: past.stage }
          : { status: 'unavailable', reason: 'its renderer is still starting' };
      }
      if (!ready)
        return { status: 'failed', reason: worker.endReason ?? 'its renderer did not start', stage: 'start' };
    }
    if (worker.state !== 'ready') {
      return { status: 'failed', reason: worker.endReason ?? 'its renderer stopped', stage: 'render' };
    }
    if (worker.queue.length >= (this.o.maxQueue ?? 32)) {
      return { status: 'unavailable', reason: 'too many renders wait for this release' };
    }
    const id = this.nextId++;
    return new Promise<CallResult>((resolve) => {
      (worker as Worker).queue.push({ request: { id, ...request } as WorkerRequest, resolve });
      this.pump(worker as Worker);
    });
  }

  /** Resolves once no worker is starting (each is ready, or has failed): start-up, tests. */
  async settled(): Promise<void> {
    for (;;) {
      const starting = [...this.workers.values()].filter((w) => w.state === 'starting');
      if (starting.length === 0) return;
      await Promise.all(starting.map((w) => w.ready));
    }
  }

  /** The workers running now (GET /_edge/status). */
  status(): WorkerStatus[] {
    return [...this.workers.values()].map((w) => ({
      remote: w.release.remote,
      version: w.release.version,
      pid: w.child.pid ?? null,
      state: w.state,
      busy: w.inFlight !== null,
      startedAt: new Date(w.startedAt).toISOString(),
      renders: w.renders,
    }));
  }

  /** Stops every worker (the edge is draining). */
  close(): void {
    this.closed = true;
    for (const worker of [...this.workers.values()]) this.end(worker, 'the edge is stopping', false);
  }

  /** Why a release may not start a worker now (it failed a moment ago), or null. */
  private pausing(release: SandboxedRelease): { reason: string; stage: 'start' | 'render' } | null {
    const past = this.history.get(release.folder);
    if (!past || past.retryAt <= this.now()) return null;
    const seconds = Math.ceil((past.retryAt - this.now()) / 1000);
    return { reason: `${past.lastError}; next try in ${seconds} s`, stage: past.stage };
  }

  private start(release: SandboxedRelease): Worker {
    this.makeRoom();
    const plan = launchPlan({
      workerScript: this.o.workerScript,
      rendererFile: release.rendererFile,
      releaseFolder: release.folder,
      limits: this.o.limits,
      isolation: this.isolation,
    });
    const child = spawn(plan.command, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    let markReady: (ok: boolean) => void = () => undefined;
    const ready = new Promise<boolean>((resolve) => {
      markReady = resolve;
    });
    const worker: Worker = {
      release,
      child,
      state: 'starting',
      ready,
      markReady,
      queue: [],
      inFlight: null,
      lastUsed: this.now(),
      idleTimer: null,
      startedAt: this.now(),
      renders: 0,
      logLines: 0,
      endReason: null,
    };
    this.workers.set(release.folder, worker);
    const startTimer = setTimeout(
      () => this.end(worker, `did not start within ${this.o.startTimeoutMs} ms`, true),
      this.o.startTimeoutMs,
    );
    const answers = child.stdio[ANSWER_FD] as NodeJS.ReadableStream;
    answers.on(
      'data',
      lineReader(
        MAX_ANSWER_BYTES,
        (line) => {
          if (worker.state === 'starting') clearTimeout(startTimer);
          this.received(worker, line);
        },
        () => this.end(worker, `answered more than ${MAX_ANSWER_BYTES} bytes at once`, true),
      ),
    );
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on(
        'data',
        lineReader(
          64 * 1024,
          (line) => this.forwardLog(worker, line),
          () => this.forwardLog(worker, '(a longer line was dropped)'),
        ),
      );
    }
    child.on('error', (error) => {
      clearTimeout(startTimer);
      this.end(worker, `could not start: ${error.message}`, true);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(startTimer);
      if (worker.state !== 'dead') this.end(worker, exitReason(code, signal), true);
    });
    child.stdin?.on('error', () => undefined); // a dead worker's pipe: its exit says why
    return worker;
  }

  private forwardLog(worker: Worker, line: string) {
    if (!this.o.log || worker.logLines > MAX_LOG_LINES) return;
    worker.logLines += 1;
    this.o.log(
      worker.release,
      worker.logLines > MAX_LOG_LINES
        ? `(more output of this worker is not forwarded)`
        : line.slice(0, MAX_LOG_LINE),
    );
  }

  private received(worker: Worker, line: string) {
    let answer: WorkerAnswer;
    try {
      answer = JSON.parse(line) as WorkerAnswer;
    } catch {
      this.end(worker, 'answered something that is not JSON', true);
      return;
    }
    if (worker.state === 'starting') {
      if ('ready' in answer && answer.ready === true) {
        worker.state = 'ready';
        worker.markReady(true);
        this.touch(worker);
        this.pump(worker);
      } else {
        const error = 'error' in answer && typeof answer.error === 'string' ? answer.error : 'no ready line';
        this.end(worker, `its renderer did not load: ${error.slice(0, 500)}`, true);
      }
      return;
    }
    const pending = worker.inFlight;
    if (!pending || !('id' in answer) || answer.id !== pending.request.id) {
      this.end(worker, 'answered a request it was not asked', true);
      return;
    }
    clearTimeout(pending.timer);
    worker.inFlight = null;
    worker.renders += 1;
    if (answer.ok) {
      this.history.delete(worker.release.folder);
      pending.resolve({ status: 'ok', value: 'page' in answer ? answer.page : answer.keys });
    } else {
      pending.resolve({ status: 'failed', reason: String(answer.error).slice(0, 500), stage: 'render' });
    }
    this.touch(worker);
    this.pump(worker);
  }

  private pump(worker: Worker) {
    if (worker.state !== 'ready' || worker.inFlight) return;
    const next = worker.queue.shift();
    if (!next) return;
    const timer = setTimeout(
      () => this.end(worker, `took longer than ${this.o.timeoutMs} ms (killed)`, true),
      this.o.timeoutMs,
    );
    worker.inFlight = { ...next, timer };
    worker.lastUsed = this.now();
    worker.child.stdin?.write(`${JSON.stringify(next.request)}\n`);
  }

  /** Restarts the idle countdown of a worker that just did something. */
  private touch(worker: Worker) {
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    worker.idleTimer = setTimeout(() => {
      if (!worker.inFlight && worker.queue.length === 0) this.end(worker, 'idle', false);
    }, this.o.idleMs);
    worker.idleTimer.unref();
  }

  /** Past the cap, the least recently used worker makes room for a new one. */
  private makeRoom() {
    while (this.workers.size >= this.o.maxWorkers) {
      const oldest = [...this.workers.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!oldest) return;
      this.end(oldest, 'stopped to make room for another release', false);
    }
  }

  /**
   * Ends a worker: the request in flight fails (the release's fault when `failed`), those waiting are
   * answered unavailable, and a failure pauses the release's next start.
   */
  private end(worker: Worker, reason: string, failed: boolean) {
    if (worker.state === 'dead') return;
    const wasStarting = worker.state === 'starting';
    worker.state = 'dead';
    worker.endReason = reason;
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    if (this.workers.get(worker.release.folder) === worker) this.workers.delete(worker.release.folder);
    worker.child.kill('SIGKILL');
    worker.markReady(false);
    if (worker.inFlight) {
      clearTimeout(worker.inFlight.timer);
      worker.inFlight.resolve(
        failed ? { status: 'failed', reason, stage: 'render' } : { status: 'unavailable', reason },
      );
      worker.inFlight = null;
    }
    for (const pending of worker.queue.splice(0)) pending.resolve({ status: 'unavailable', reason });
    if (failed) {
      const past = this.history.get(worker.release.folder) ?? {
        failures: 0,
        retryAt: 0,
        lastError: null,
        stage: 'render',
      };
      past.failures += 1;
      past.lastError = reason;
      past.stage = wasStarting ? 'start' : 'render';
      past.retryAt = this.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (past.failures - 1));
      this.history.set(worker.release.folder, past);
    }
  }
}

function exitReason(code: number | null, signal: NodeJS.Signals | null): string {
  // V8 aborts when the heap cap is reached; prlimit's CPU cap ends with SIGXCPU (or SIGKILL past the hard one).
  if (signal === 'SIGABRT' || signal === 'SIGTRAP' || code === 134)
    return 'ended: out of memory (heap cap reached)';
  if (signal === 'SIGXCPU') return 'ended: CPU time cap reached';
  // An allocation refused at the memory cap (RLIMIT_DATA) inside V8 itself ends that way too.
  if (signal === 'SIGSEGV') return 'ended by SIGSEGV (the memory cap, most likely)';
  return signal ? `ended by ${signal}` : `exited with code ${code}`;
}
