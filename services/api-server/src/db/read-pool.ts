import { Worker } from 'node:worker_threads';

interface Slot {
  worker: Worker;
  /** Jobs sent to this worker and not answered yet (a worker answers them in order). */
  pending: number;
}

/** What a worker answers: the rows, and the parameters it filled in first (see `query`). */
export interface PoolAnswer {
  rows: unknown[];
  filled: Record<string, unknown>;
}

interface Waiting {
  resolve: (answer: PoolAnswer) => void;
  reject: (error: Error) => void;
  slot: Slot;
}

/**
 * Read queries off the event loop (issue 17): a few worker threads, each with its own read-only connection
 * to the same WAL database, so readers see every committed write. A query goes to the worker with the
 * fewest jobs waiting. Used for full-text search, the one read whose cost grows with the data (bm25 over
 * every match); everything else is an indexed lookup that fits the per-request budget on the main thread.
 * An in-memory database cannot be shared between threads: callers then run the query inline.
 */
export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;

  /**
   * Workers start on the first query, not here: a process that never searches (the admin CLI, a test that
   * reads no list) never pays for threads it does not use.
   */
  constructor(
    private readonly file: string,
    private readonly size: number,
  ) {}

  private started(): Slot[] {
    if (this.slots.length === 0) {
      for (let i = 0; i < this.size; i++) {
        const slot = { pending: 0 } as Slot;
        this.start(slot, this.file);
        this.slots.push(slot);
      }
    }
    return this.slots;
  }

  /** (Re)starts a slot's worker: one that died (out of memory, a native crash) fails its jobs and is replaced. */
  private start(slot: Slot, file: string): void {
    const worker = new Worker(new URL('./read-worker.mjs', import.meta.url), { workerData: { file } });
    slot.worker = worker;
    slot.pending = 0;
    worker.on(
      'message',
      (message: { id: number; rows?: unknown[]; filled?: Record<string, unknown>; error?: string }) => {
        const job = this.waiting.get(message.id);
        if (!job) return;
        this.waiting.delete(message.id);
        job.slot.pending -= 1;
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve({ rows: message.rows ?? [], filled: message.filled ?? {} });
      },
    );
    worker.on('error', (error) => {
      this.failAll(slot, error);
      if (!this.closed) this.start(slot, file);
    });
    // Workers must not keep the process alive once the server has closed.
    worker.unref();
  }

  /** The rows of `sql` with named `params`, read by a worker. */
  async all(sql: string, params: Record<string, unknown>): Promise<unknown[]> {
    return (await this.query(sql, params)).rows;
  }

  /**
   * The rows of `sql`, after the worker fills each parameter of `fill` that is null in `params` with the
   * single value of its query (run with the parameters so far): a search's ranking floor, itself a read
   * of the full-text index, then costs the event loop nothing either. The values used come back in `filled`.
   */
  query(
    sql: string,
    params: Record<string, unknown>,
    fill: Record<string, string> = {},
  ): Promise<PoolAnswer> {
    const slot = this.started().reduce((best, s) => (s.pending < best.pending ? s : best));
    const id = this.nextId++;
    slot.pending += 1;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, slot });
      slot.worker.postMessage({ id, sql, params, fill });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private failAll(slot: Slot, error: Error): void {
    for (const [id, job] of this.waiting) {
      if (job.slot !== slot) continue;
      this.waiting.delete(id);
      job.reject(error);
    }
    slot.pending = 0;
  }
}
