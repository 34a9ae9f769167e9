import type { Lifecycle } from '@app/http-lifecycle';
import type { PreviewService } from './deploy-previews';
import type { DeploymentService, EnvironmentRevisions } from './deployments';

/**
 * The long-poll behind the public deployment feed (GET /api/deployment/<env>?after=N&previews=M): how every
 * edge learns of a change of the deployment or of its preview links within a fraction of a second without
 * a push channel between API instances.
 *
 * While any request waits, one query (every environment's deployment and previews revisions) runs every
 * `pollMs` on this instance, whatever the number of waiters: that is how a change made through another
 * instance is seen. A change made through this one wakes its waiters at once. Nothing polls while nobody
 * waits.
 */
export type WaitOutcome = 'changed' | 'timeout' | 'draining' | 'full';

/** What a waiter has: the deployment's revision, and the previews' (null: it does not follow them). */
export interface FeedPosition {
  after: number;
  previews: number | null;
}

interface Waiter extends FeedPosition {
  environment: string;
  done(outcome: WaitOutcome): void;
}

/** True when the environment is elsewhere than the waiter's position (lower too: a restored backup). */
export function movedOn(position: FeedPosition, now: EnvironmentRevisions): boolean {
  return (
    now.deployment !== position.after || (position.previews !== null && now.previews !== position.previews)
  );
}

export interface FeedOptions {
  pollMs: number;
  timeoutMs: number;
  maxWaiters: number;
}

export class DeployFeed {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | null = null;
  private checking = false;
  private again = false;

  constructor(
    private readonly deployments: DeploymentService,
    previews: PreviewService,
    private readonly lifecycle: Lifecycle,
    readonly options: FeedOptions,
  ) {
    deployments.onWrite(() => void this.check());
    previews.onWrite(() => void this.check());
  }

  get waiting(): number {
    return this.waiters.size;
  }

  /**
   * Resolves when the environment is no longer at `position` ('changed'), at the timeout, when the
   * instance starts draining (a waiting request must not hold the drain up), or when `signal` aborts (the
   * client went away). 'full' at once when too many wait already.
   */
  wait(
    environment: string,
    position: FeedPosition,
    signal?: AbortSignal,
    timeoutMs = this.options.timeoutMs,
  ) {
    if (this.lifecycle.draining) return Promise.resolve<WaitOutcome>('draining');
    if (this.waiters.size >= this.options.maxWaiters) return Promise.resolve<WaitOutcome>('full');
    return new Promise<WaitOutcome>((resolve) => {
      const waiter: Waiter = {
        environment,
        ...position,
        done: (outcome) => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(timeout);
          signal?.removeEventListener('abort', onAbort);
          if (this.waiters.size === 0) this.stop();
          resolve(outcome);
        },
      };
      const timeout = setTimeout(() => waiter.done('timeout'), timeoutMs);
      const onAbort = () => waiter.done('timeout');
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
      this.start();
    });
  }

  /** Ends every wait now (the server is closing). */
  close(): void {
    for (const waiter of [...this.waiters]) waiter.done('draining');
  }

  private start() {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.options.pollMs);
    this.timer.unref();
  }

  private stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look at every revision; a write during a look asks for another right after it. */
  private async check(): Promise<void> {
    if (this.waiters.size === 0) return;
    if (this.lifecycle.draining) {
      this.close();
      return;
    }
    if (this.checking) {
      this.again = true;
      return;
    }
    this.checking = true;
    try {
      const revisions = await this.deployments.revisions();
      for (const waiter of [...this.waiters]) {
        const now = revisions.get(waiter.environment) ?? { deployment: 0, previews: 0 };
        if (movedOn(waiter, now)) waiter.done('changed');
      }
    } catch {
      // The database is away for a moment: the waiters keep waiting (at worst until their timeout, a 204
      // the edge answers by asking again); the next tick looks again.
    } finally {
      this.checking = false;
    }
    if (this.again) {
      this.again = false;
      await this.check();
    }
  }
}
