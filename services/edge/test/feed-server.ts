// A stand-in for the API's public deployment feed (DEPLOY_PATHS.feed), answering as the API does: the
// environment's state at once without `after` or when its revision is above it, else held until a change
// (or `holdMs`) and then 204. A real node:http server, so the edge's feed loop runs unchanged in tests.
// It also takes the edge's reports of dev override links' use (DEPLOY_PATHS.overrideUses), keeping each.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { emptyManifest, type FeedPreview } from '@app/rollout';
import type { FeedOverride } from '@app/rollout/dev-override';

export function feedServer(o: { environment?: string; holdMs?: number } = {}) {
  const environment = o.environment ?? 'production';
  const holdMs = o.holdMs ?? 25_000;
  let revision = 0;
  let manifest: unknown = emptyManifest(environment);
  let updatedAt: string | null = null;
  // The environment's preview links, with a revision of their own (decision 0037).
  let previewsRevision = 0;
  let links: FeedPreview[] = [];
  let overrides: FeedOverride[] = [];
  const waiting = new Set<() => void>();
  /** Every request's `after` (null: none), in order: what the edge asked. */
  const asked: Array<number | null> = [];
  /** Woken after each request of `asked` has been answered or held: whenAsked's waits. */
  const askedWaiters = new Set<() => void>();
  const told = () => {
    for (const wake of [...askedWaiters]) wake();
  };
  let failWith: number | null = null;
  /** Every override use report received (its JSON body), in order; answered `usesStatus`. */
  const uses: Array<Record<string, unknown>> = [];
  let usesStatus = 200;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === DEPLOY_PATHS.overrideUses(environment)) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        uses.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(usesStatus, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(usesStatus === 200 ? { audited: true } : { error: 'The API is unwell.' }));
      });
      return;
    }
    if (url.pathname !== DEPLOY_PATHS.feed(environment)) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: `Unknown environment. Known: ${environment}` }));
    }
    if (failWith) {
      res.writeHead(failWith, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      return res.end(JSON.stringify({ error: 'The deployment feed is busy.' }));
    }
    const raw = url.searchParams.get('after');
    const after = raw === null ? null : Number(raw);
    const rawPreviews = url.searchParams.get('previews');
    const previewsAfter = rawPreviews === null ? null : Number(rawPreviews);
    asked.push(after);
    const answer = () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(
        JSON.stringify({
          environment,
          revision,
          updatedAt,
          manifest,
          previews: { revision: previewsRevision, links, overrides },
        }),
      );
    };
    const news = () =>
      after === null || revision !== after || (previewsAfter !== null && previewsRevision !== previewsAfter);
    if (news()) {
      answer();
      return told();
    }
    const timer = setTimeout(() => {
      waiting.delete(wake);
      res.writeHead(204).end();
    }, holdMs);
    const wake = () => {
      if (!news()) return;
      clearTimeout(timer);
      waiting.delete(wake);
      answer();
    };
    waiting.add(wake);
    req.on('close', () => {
      clearTimeout(timer);
      waiting.delete(wake);
    });
    told();
  });

  let listening: Promise<string> | null = null;
  return {
    environment,
    asked,
    revision: () => revision,
    /** Requests held open now (waiting for a change). */
    held: () => waiting.size,
    /**
     * Resolves once a request from `asked[from]` on has an `after` that `match` accepts (already asked, or
     * when it comes); by then it has been answered, or is held. Rejects after `timeoutMs`.
     */
    whenAsked(match: (after: number | null) => boolean, from = 0, timeoutMs = 20_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          askedWaiters.delete(check);
          reject(new Error(`the feed was not asked so within ${timeoutMs} ms: ${JSON.stringify(asked)}`));
        }, timeoutMs);
        function check() {
          if (!asked.slice(from).some(match)) return;
          clearTimeout(timer);
          askedWaiters.delete(check);
          resolve();
        }
        askedWaiters.add(check);
        check();
      });
    },
    /** Where it listens (started on first call). */
    url() {
      listening ??= new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      );
      return listening;
    },
    /** A new revision with this manifest (its own `revision` set to match when it has one); returns it. */
    publish(next: unknown): number {
      revision += 1;
      updatedAt = new Date().toISOString();
      manifest =
        next && typeof next === 'object' && 'schemaVersion' in next ? { ...next, revision, updatedAt } : next;
      for (const wake of [...waiting]) wake();
      return revision;
    },
    /** The environment's preview links from now on (a new previews revision); returns that revision. */
    publishPreviews(next: FeedPreview[], nextOverrides: FeedOverride[] = overrides): number {
      previewsRevision += 1;
      links = next;
      overrides = nextOverrides;
      for (const wake of [...waiting]) wake();
      return previewsRevision;
    },
    previewsRevision: () => previewsRevision,
    uses,
    /** Answer override use reports with this status from now on (200: recorded). */
    answerUses(status: number) {
      usesStatus = status;
    },
    /** Answer every request with this status (null: answer normally again). */
    failing(status: number | null) {
      failWith = status;
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
