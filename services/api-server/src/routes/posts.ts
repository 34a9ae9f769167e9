import {
  API_PATHS,
  CommentInputSchema,
  isTeaser,
  PostInputSchema,
  PostUpdateSchema,
  VisibilityChangeSchema,
} from '@app/contracts';
import type { Hono } from 'hono';
import { HttpError, parseWith } from '../errors';
import { assertPublishable } from '../services/post-writes';
import {
  type C,
  caller,
  type Env,
  listQuery,
  type RouteDeps,
  requireCaller,
  teaserListQuery,
} from './http-helpers';
import { pageJson } from './list-cache';

/**
 * A read made ahead of a visit (the edge's render of a post's page, a browser's speculative
 * prefetch) says so with Sec-Purpose (or the older Purpose) `prefetch`: it counts no view, the visit's own
 * read does (docs/decisions/0022-post-page-rendered-per-request.md).
 */
const isPrefetch = (c: C) =>
  /\bprefetch\b/i.test(c.req.header('sec-purpose') ?? c.req.header('purpose') ?? '');

/** Posts, comments, likes, stats, report and the deprecated lists. Fixed paths come before /:idOrSlug. */
export function registerPostRoutes(app: Hono<Env>, { posts, json, listCache }: RouteDeps) {
  // Lists and search answer one page of cards (no content); X-Next-Cursor carries the next page's cursor
  // (docs/decisions/0013-post-lists-and-search.md). Query parsing happens only on a cache miss: a hit is
  // keyed by the exact URL.
  app.get(API_PATHS.posts, async (c) =>
    listCache.cachedJson(c, () => posts.list(caller(c), teaserListQuery(c))),
  );
  app.post(API_PATHS.posts, async (c) => {
    const who = requireCaller(c);
    const input = parseWith(PostInputSchema, await json(c));
    assertPublishable(who, input.visibility);
    return c.json(await posts.create(who.userId, input), 201);
  });
  app.get(API_PATHS.myPosts, async (c) => {
    const who = requireCaller(c);
    return pageJson(c, await posts.mine(who, listQuery(c)));
  });
  app.get(API_PATHS.searchPosts, async (c) => {
    const { q } = listQuery(c);
    if (!q) throw new HttpError(400, 'Search text (q) is required');
    return pageJson(c, await posts.search(caller(c), { ...teaserListQuery(c), q }));
  });
  app.get(API_PATHS.tags, async (c) => c.json(await posts.termCounts(caller(c), 'tag')));
  app.get(API_PATHS.categories, async (c) => c.json(await posts.termCounts(caller(c), 'category')));

  app.get('/api/posts/:idOrSlug', async (c) => {
    const countView = !isPrefetch(c);
    const post = await posts.read(caller(c), c.req.param('idOrSlug'), { countView });
    if (countView && !isTeaser(post)) listCache.clear(); // the view count changed (a teaser counts no view)
    return c.json(post);
  });
  app.put('/api/posts/:id', async (c) => {
    const who = requireCaller(c);
    return c.json(await posts.update(who, c.req.param('id'), parseWith(PostUpdateSchema, await json(c))));
  });
  app.delete('/api/posts/:id', async (c) => {
    await posts.remove(requireCaller(c), c.req.param('id'));
    return c.json({ message: 'Post deleted' });
  });
  app.post('/api/posts/:id/like', async (c) =>
    c.json(await posts.toggleLike(requireCaller(c), c.req.param('id'))),
  );
  const publish = async (c: C) => c.json(await posts.publish(requireCaller(c), c.req.param('id')!));
  app.put('/api/posts/:id/publish', publish);
  app.post('/api/posts/:id/publish', publish);
  const visibility = async (c: C) => {
    const who = requireCaller(c);
    const { visibility } = parseWith(VisibilityChangeSchema, await json(c));
    return c.json(await posts.setVisibility(who, c.req.param('id')!, visibility));
  };
  app.put('/api/posts/:id/visibility', visibility);
  app.patch('/api/posts/:id/visibility', visibility);

  app.get('/api/posts/:id/comments', async (c) => c.json(await posts.comments(caller(c), c.req.param('id'))));
  app.post('/api/posts/:id/comments', async (c) => {
    const who = requireCaller(c);
    const { content } = parseWith(CommentInputSchema, await json(c));
    return c.json(await posts.addComment(who, c.req.param('id'), content), 201);
  });
  app.put('/api/comments/:id', async (c) => {
    const who = requireCaller(c);
    const { content } = parseWith(CommentInputSchema, await json(c));
    return c.json(await posts.editComment(who, c.req.param('id'), content));
  });
  app.delete('/api/comments/:id', async (c) => {
    await posts.deleteComment(requireCaller(c), c.req.param('id'));
    return c.json({ message: 'Comment deleted' });
  });
  app.post('/api/comments/:id/like', async (c) =>
    c.json(await posts.toggleCommentLike(requireCaller(c), c.req.param('id'))),
  );

  app.get(API_PATHS.stats, async (c) => c.json(await posts.stats(requireCaller(c))));
  app.get(API_PATHS.report, async (c) => c.json(await posts.report(caller(c))));

  // Deprecated: kept answering for older clients.
  app.get(API_PATHS.publicPostsDeprecated, async (c) => {
    c.header('Deprecation', 'true');
    const q = listQuery(c);
    return pageJson(c, await posts.list(null, { ...q, status: 'published', visibility: ['public'] }));
  });
  app.get(API_PATHS.privatePostsDeprecated, async (c) => {
    const who = requireCaller(c);
    c.header('Deprecation', 'true');
    const q = listQuery(c);
    return pageJson(c, await posts.list(who, { ...q, status: 'published' }));
  });
}
