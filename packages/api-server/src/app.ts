import { gzipSync } from 'node:zlib';
import {
  API_PATHS,
  ChangePasswordSchema,
  CommentInputSchema,
  ContentTypeSchema,
  LoginRequestSchema,
  MarketAssessmentSchema,
  PostInputSchema,
  PostStatusSchema,
  PostUpdateSchema,
  PreferencesSchema,
  ProfileUpdateSchema,
  RegistrationPayloadSchema,
  RoleChangeSchema,
  VisibilityChangeSchema,
  VisibilitySchema,
} from '@app/contracts';
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { Config } from './config';
import { type AppContext, createContext } from './context';
import { forbidden, HttpError, parseWith, unauthorized } from './errors';
import type { Caller } from './services/accounts';
import { MSG } from './services/accounts';

type Env = { Variables: { caller: Caller | null } };
type C = Context<Env>;

const MAX_LIMIT = 100;
const JSON_HEADERS = { 'Content-Type': 'application/json', Vary: 'Origin, Accept-Encoding' };
const GZIP_JSON_HEADERS = { ...JSON_HEADERS, 'Content-Encoding': 'gzip' };
const IntString = (min: number, max: number, message: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, message),
    v.transform(Number),
    v.minValue(min, message),
    v.maxValue(max, message),
  );
const Term = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(),
  v.maxLength(40, 'Filter values are at most 40 characters'),
);

const ListQuerySchema = v.object({
  status: v.optional(v.picklist(PostStatusSchema.options, 'status must be published or draft'), 'published'),
  visibility: v.optional(v.array(v.picklist(VisibilitySchema.options, 'Unknown visibility'))),
  limit: v.optional(IntString(1, MAX_LIMIT, `limit must be an integer from 1 to ${MAX_LIMIT}`), '20'),
  offset: v.optional(IntString(0, 1_000_000, 'offset must be a non-negative integer'), '0'),
  tag: v.optional(Term),
  category: v.optional(Term),
  content_type: v.optional(v.picklist(ContentTypeSchema.options, 'Unknown content type')),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'Search text is at most 200 characters'))),
});

function listQuery(c: C) {
  const raw: Record<string, unknown> = {};
  for (const key of ['status', 'limit', 'offset', 'tag', 'category', 'content_type', 'q']) {
    const value = c.req.query(key);
    if (value !== undefined && value !== '') raw[key] = value;
  }
  // Accept both ?visibility=a&visibility=b and ?visibility=a,b.
  const vis = (c.req.queries('visibility') ?? []).flatMap((s) => s.split(',')).filter((s) => s !== '');
  if (vis.length) raw.visibility = vis;
  const q = parseWith(ListQuerySchema, raw);
  return {
    status: q.status,
    visibility: q.visibility ?? null,
    limit: q.limit,
    offset: q.offset,
    tag: q.tag ?? null,
    category: q.category ?? null,
    contentType: q.content_type ?? null,
    q: q.q || null,
  };
}

/**
 * The request body as JSON, read only by the routes that take one (so GETs never touch the stream).
 * Over the limit is a 413, malformed JSON a 400; never a 500.
 */
async function body(c: C, limit: number): Promise<unknown> {
  const tooLarge = () => new HttpError(413, 'Request body too large', {});
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > limit) {
    c.header('Connection', 'close');
    throw tooLarge();
  }
  const stream = c.req.raw.body;
  if (!stream) return undefined;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      c.header('Connection', 'close');
      throw tooLarge();
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
}

const caller = (c: C) => c.get('caller');
function requireCaller(c: C): Caller {
  const who = c.get('caller');
  if (!who) throw unauthorized();
  return who;
}
function requireAdmin(c: C): Caller {
  const who = requireCaller(c);
  if (!who.roles.includes('admin')) throw forbidden('Administrator role required');
  return who;
}

/**
 * The hono app over a context (database + services). Given a bare config it opens the database itself
 * (migrated, without demo posts: use startServer for the full start-up).
 */
export function createApp(input: AppContext | Config): Hono<Env> {
  const ctx = 'db' in input ? input : createContext(input);
  const { config, accounts, posts, site } = ctx;
  const app = new Hono<Env>();
  const json = (c: C) => body(c, config.bodyLimitBytes);
  const log =
    config.logLevel === 'silent' ? null : (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

  if (config.logLevel === 'info') {
    app.use('*', async (c, next) => {
      const started = performance.now();
      await next();
      log?.({
        level: 'info',
        time: new Date().toISOString(),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    });
  }

  // Resolve the bearer token once. A token that is sent but no longer valid is a 401 on every route, so the
  // client clears it (SPEC §8) instead of silently browsing as a guest.
  app.use('/api/*', async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) {
      c.set('caller', null);
      return next();
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const who = match?.[1] && match[1].length <= 200 ? accounts.authenticate(match[1]) : null;
    if (!who) throw new HttpError(401, MSG.sessionInvalid);
    c.set('caller', who);
    return next();
  });

  /**
   * The serialized answers of GET /api/posts, per caller, roles and URL. Any write through this server
   * (every non-GET request, and a single read, which counts a view) empties it, so an answer is never stale
   * for data this process changed; nothing else writes posts.
   */
  const listCache = new Map<string, { body: Uint8Array; gzip?: Uint8Array }>();
  app.use('/api/*', async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && listCache.size > 0) listCache.clear();
  });
  const cachedJson = (c: C, compute: () => unknown) => {
    const who = caller(c);
    const key = `${who?.userId ?? 0}|${who?.roles.join(',') ?? '-'}|${c.req.url}`;
    let entry = listCache.get(key);
    if (entry === undefined) {
      // Kept as bytes: a hit then writes the same buffer, with no per-request encoding or garbage.
      entry = { body: Buffer.from(JSON.stringify(compute())) };
      if (config.listCacheSize > 0) {
        if (listCache.size >= config.listCacheSize) listCache.clear();
        listCache.set(key, entry);
      }
    }
    // Browsers send Accept-Encoding: gzip; a list is ~25 KB of Markdown and compresses ~4x. Compressed once
    // per cache entry, not per request.
    if (entry.body.byteLength > 1024 && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      entry.gzip ??= gzipSync(entry.body, { level: 6 });
      return new Response(entry.gzip, { status: 200, headers: GZIP_JSON_HEADERS });
    }
    // A plain Response with plain-object headers stays on @hono/node-server's fast path.
    return new Response(entry.body, { status: 200, headers: JSON_HEADERS });
  };

  app.get('/api/health', (c) => c.json({ status: 'ok' }));

  // --- accounts ---

  app.post(API_PATHS.register, async (c) => {
    const payload = parseWith(RegistrationPayloadSchema, await json(c));
    const { requires_activation } = await accounts.register(payload);
    const message = requires_activation
      ? 'Registration successful. An administrator must activate your account before you can log in.'
      : 'Registration successful. You can now log in.';
    return c.json({ message, requires_activation }, 201);
  });

  app.post(API_PATHS.login, async (c) => {
    const { username, password } = parseWith(LoginRequestSchema, await json(c));
    return c.json(await accounts.login(username, password));
  });

  app.post(API_PATHS.logout, (c) => {
    accounts.logout(requireCaller(c));
    return c.json({ message: 'Logged out' });
  });

  app.get(API_PATHS.profile, (c) => c.json(accounts.profile(requireCaller(c).userId)));
  app.put(API_PATHS.profile, async (c) => {
    const who = requireCaller(c);
    return c.json(accounts.updateProfile(who.userId, parseWith(ProfileUpdateSchema, await json(c))));
  });

  app.get(API_PATHS.preferences, (c) => c.json(accounts.preferences(requireCaller(c).userId)));
  app.put(API_PATHS.preferences, async (c) => {
    const who = requireCaller(c);
    return c.json(accounts.savePreferences(who.userId, parseWith(PreferencesSchema, await json(c))));
  });

  const changePassword = async (c: C) => {
    const who = requireCaller(c);
    await accounts.changePassword(who, parseWith(ChangePasswordSchema, await json(c)));
    return c.json({ message: 'Password updated successfully' });
  };
  app.put(API_PATHS.changePassword, changePassword);
  app.post(API_PATHS.changePassword, changePassword);

  const deleteAccount = (c: C) => {
    accounts.deleteAccount(requireCaller(c).userId);
    return c.json({ message: 'Account deleted' });
  };
  app.delete(API_PATHS.deleteAccount, deleteAccount);
  app.post(API_PATHS.deleteAccount, deleteAccount);

  // --- posts (fixed paths before /:idOrSlug) ---

  // Query parsing happens only on a cache miss: a hit is keyed by the exact URL.
  app.get(API_PATHS.posts, (c) => cachedJson(c, () => posts.list(caller(c), listQuery(c))));
  app.post(API_PATHS.posts, async (c) => {
    const who = requireCaller(c);
    return c.json(posts.create(who.userId, parseWith(PostInputSchema, await json(c))), 201);
  });
  app.get(API_PATHS.myPosts, (c) => {
    const who = requireCaller(c);
    const q = listQuery(c);
    return c.json(posts.mine(who, q.limit, q.offset));
  });
  app.get(API_PATHS.searchPosts, (c) => {
    const q = listQuery(c);
    if (!q.q) throw new HttpError(400, 'Search text (q) is required');
    return c.json(posts.search(caller(c), { ...q, q: q.q }));
  });
  app.get(API_PATHS.tags, (c) => c.json(posts.termCounts(caller(c), 'tag')));
  app.get(API_PATHS.categories, (c) => c.json(posts.termCounts(caller(c), 'category')));

  app.get('/api/posts/:idOrSlug', (c) => {
    const post = posts.read(caller(c), c.req.param('idOrSlug'));
    listCache.clear(); // the view count changed
    return c.json(post);
  });
  app.put('/api/posts/:id', async (c) => {
    const who = requireCaller(c);
    return c.json(posts.update(who, c.req.param('id'), parseWith(PostUpdateSchema, await json(c))));
  });
  app.delete('/api/posts/:id', (c) => {
    posts.remove(requireCaller(c), c.req.param('id'));
    return c.json({ message: 'Post deleted' });
  });
  app.post('/api/posts/:id/like', (c) => c.json(posts.toggleLike(requireCaller(c), c.req.param('id'))));
  const publish = (c: C) => c.json(posts.publish(requireCaller(c), c.req.param('id')!));
  app.put('/api/posts/:id/publish', publish);
  app.post('/api/posts/:id/publish', publish);
  const visibility = async (c: C) => {
    const who = requireCaller(c);
    const { visibility } = parseWith(VisibilityChangeSchema, await json(c));
    return c.json(posts.setVisibility(who, c.req.param('id')!, visibility));
  };
  app.put('/api/posts/:id/visibility', visibility);
  app.patch('/api/posts/:id/visibility', visibility);

  app.get('/api/posts/:id/comments', (c) => c.json(posts.comments(caller(c), c.req.param('id'))));
  app.post('/api/posts/:id/comments', async (c) => {
    const who = requireCaller(c);
    const { content } = parseWith(CommentInputSchema, await json(c));
    return c.json(posts.addComment(who, c.req.param('id'), content), 201);
  });
  app.put('/api/comments/:id', async (c) => {
    const who = requireCaller(c);
    const { content } = parseWith(CommentInputSchema, await json(c));
    return c.json(posts.editComment(who, c.req.param('id'), content));
  });
  app.delete('/api/comments/:id', (c) => {
    posts.deleteComment(requireCaller(c), c.req.param('id'));
    return c.json({ message: 'Comment deleted' });
  });
  app.post('/api/comments/:id/like', (c) =>
    c.json(posts.toggleCommentLike(requireCaller(c), c.req.param('id'))),
  );

  app.get(API_PATHS.stats, (c) => c.json(posts.stats(requireCaller(c))));
  app.get(API_PATHS.report, (c) => c.json(posts.report(caller(c))));

  // Deprecated: kept answering for older clients.
  app.get(API_PATHS.publicPostsDeprecated, (c) => {
    c.header('Deprecation', 'true');
    const q = listQuery(c);
    return c.json(posts.list(null, { ...q, status: 'published', visibility: ['public'] }));
  });
  app.get(API_PATHS.privatePostsDeprecated, (c) => {
    const who = requireCaller(c);
    c.header('Deprecation', 'true');
    const q = listQuery(c);
    return c.json(posts.list(who, { ...q, status: 'published' }));
  });

  // --- public pages ---

  app.get(API_PATHS.dashboards, (c) => c.json(site.dashboards()));
  app.get(API_PATHS.publicContact, (c) => c.json(site.contact()));
  app.get(API_PATHS.publicImpressum, (c) => c.json(site.impressum()));

  app.post(API_PATHS.marketAssessment, async (c) => {
    const key = c.req.header('idempotency-key')?.trim() || null;
    if (key && key.length > 200) throw new HttpError(400, 'Idempotency-Key must be at most 200 characters');
    const payload = parseWith(MarketAssessmentSchema, await json(c));
    const stored = site.submitAssessment(payload, caller(c)?.userId ?? null, key);
    return c.json(stored.body, stored.status);
  });

  // --- administration ---

  app.get(API_PATHS.adminUsers, (c) => {
    requireAdmin(c);
    const status = c.req.query('status') ?? 'all';
    if (status !== 'pending' && status !== 'all') throw new HttpError(400, 'status must be pending or all');
    return c.json(accounts.listUsers(status));
  });
  const userRef = (c: C) => {
    const id = c.req.param('id') ?? '';
    if (!/^\d{1,12}$/.test(id)) throw new HttpError(404, 'User not found');
    return Number(id);
  };
  app.post('/api/admin/users/:id/activate', (c) => {
    requireAdmin(c);
    return c.json(accounts.activate(userRef(c)));
  });
  app.post('/api/admin/users/:id/roles', async (c) => {
    requireAdmin(c);
    const { role } = parseWith(RoleChangeSchema, await json(c));
    return c.json(accounts.grant(userRef(c), role));
  });
  app.delete('/api/admin/users/:id/roles/:role', (c) => {
    requireAdmin(c);
    const role = c.req.param('role');
    if (!v.is(RoleChangeSchema.entries.role, role)) throw new HttpError(400, 'Unknown role');
    return c.json(accounts.revoke(userRef(c), role));
  });

  app.notFound((c) => c.json({ error: 'Not found' }, 404));
  app.onError((err, c) => {
    if (err instanceof HttpError) return c.json(err.body(), err.status);
    if (log || config.logLevel === 'error') {
      process.stderr.write(
        `${JSON.stringify({ level: 'error', time: new Date().toISOString(), method: c.req.method, path: c.req.path, error: String(err), stack: err instanceof Error ? err.stack : undefined })}\n`,
      );
    }
    return c.json({ error: 'Internal server error' }, 500);
  });

  return app;
}
