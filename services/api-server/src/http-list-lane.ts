import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PATHS } from '@app/contracts';
import type { AppContext } from './context';
import { markRoute } from './http-metrics';
import type { ListCache } from './routes/list-cache';
import { queryString, teaserListQueryOf } from './routes/list-query';
import {
  accessLine,
  bearerToken,
  errorAnswer,
  isoTime,
  logLine,
  sessionCaller,
} from './routes/request-basics';

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * GET /api/posts, the lists (Explore, Home, a research list's pages) and most of what the API answers,
 * served on the Node request without hono (issue 36; docs/decisions/0033-list-lane.md). Wrapping hono's
 * Request, Context, middleware chain and Response around a 50-card page cost ~20 % of its throughput.
 *
 * The lane changes how the request is carried, not what it answers: it runs the same steps as the hono
 * route (routes/posts.ts) with the same functions: the caller (`bearerToken`, `sessionCaller`: app.ts's
 * token check), the query (`teaserListQueryOf`), the answer cache (`ListCache.answer`), the error
 * answers (`errorAnswer`, app.ts's onError), the access line (`accessLine`) and the route template /metrics
 * counts it under (`markRoute`, the one hono's matched route would give). What hono would add for
 * this route is nothing else: no rate limit counts a read (LimitRule's methods are writes only;
 * `anonymous` skips reads), the list cache is emptied only after writes, and the edge headers, compression
 * and draining wrap both lanes (server.ts). test/list-lane.test.ts asks both lanes the same questions.
 *
 * Anything but a GET of exactly /api/posts (HEAD, another path, a trailing slash) goes to hono.
 */
export function withListLane(ctx: AppContext, listCache: ListCache, next: Listener): Listener {
  const { config, accounts, posts } = ctx;
  const log = config.logLevel === 'info' ? logLine(config) : null;

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    let status = 200;
    try {
      const query = queryString(req.url ?? '');
      const token = bearerToken(req.headers.authorization);
      const who = token === null ? null : sessionCaller(await accounts.authenticate(token));
      const answer = await listCache.answer(who, query, req.headers['accept-encoding'], () =>
        posts.list(who, teaserListQueryOf(query)),
      );
      res.writeHead(200, answer.headers);
      res.end(answer.body);
    } catch (err) {
      const error = errorAnswer(err, { method: 'GET', path: API_PATHS.posts }, config, ctx.now);
      status = error.status;
      res.writeHead(error.status, { 'Content-Type': 'application/json', ...error.headers });
      res.end(JSON.stringify(error.body));
    }
    log?.(accessLine(isoTime(ctx.now), 'GET', API_PATHS.posts, status, started));
  }

  return (req, res) => {
    if (req.method !== 'GET' || !isListTarget(req.url)) return next(req, res);
    markRoute(req, API_PATHS.posts);
    // serve answers every error itself; a failure to write at all (the socket gone) ends the response.
    serve(req, res).catch(() => res.destroy());
  };
}

const isListTarget = (url: string | undefined) =>
  url === API_PATHS.posts || url?.startsWith(`${API_PATHS.posts}?`) === true;
