// What this edge saw of each version's server renders (docs/decisions/0043-server-signals-in-the-gate.md):
// per remote, version, track and minute, how many first screens it rendered with a release's code, how many
// failed and how many were slow, and for how long in all. Counted in memory and sent to the API in signed
// batches (render-reporter.ts); only stable and canary renders count: a preview's or a page under a dev
// override is nobody's rollout evidence.
import type { RenderFiguresEntry } from '@app/contracts/render-report';
import { type RemotePackage, type ServerTrack, SLOW_RENDER_MS } from '@app/rollout';

/**
 * Minutes waiting to be sent are bounded: while the API is unreachable they pile up (a few remotes × two
 * versions × a minute each); past this the newest counts are dropped rather than the edge's memory.
 */
export const MAX_PENDING_ENTRIES = 5000;

export interface RenderCount {
  remote: RemotePackage;
  version: string;
  track: ServerTrack;
  failed: boolean;
  ms: number;
}

export class RenderFigures {
  private pending = new Map<string, RenderFiguresEntry>();
  /** Counts dropped because MAX_PENDING_ENTRIES was reached (said once per batch by the reporter). */
  dropped = 0;

  constructor(private readonly now: () => number = Date.now) {}

  count(c: RenderCount): void {
    this.add({
      remote: c.remote,
      version: c.version,
      track: c.track,
      minute: Math.floor(this.now() / 60_000),
      renders: 1,
      failures: c.failed ? 1 : 0,
      slow: c.ms > SLOW_RENDER_MS ? 1 : 0,
      durationMs: Math.max(0, Math.round(c.ms)),
    });
  }

  /** Everything counted so far, emptied: the next batch. */
  take(): RenderFiguresEntry[] {
    const entries = [...this.pending.values()];
    this.pending.clear();
    return entries;
  }

  /** Entries a batch could not deliver, added back for the next one. */
  putBack(entries: RenderFiguresEntry[]): void {
    for (const entry of entries) this.add(entry);
  }

  get size(): number {
    return this.pending.size;
  }

  private add(e: RenderFiguresEntry): void {
    const key = `${e.remote}\n${e.version}\n${e.track}\n${e.minute}`;
    const had = this.pending.get(key);
    if (had) {
      had.renders += e.renders;
      had.failures += e.failures;
      had.slow += e.slow;
      had.durationMs += e.durationMs;
    } else if (this.pending.size < MAX_PENDING_ENTRIES) {
      this.pending.set(key, { ...e });
    } else {
      this.dropped += e.renders;
    }
  }
}
