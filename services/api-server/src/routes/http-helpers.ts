import { ContentTypeSchema, isAdmin, PostStatusSchema, VisibilitySchema } from '@app/contracts';
import * as v from 'valibot';
import type { AppContext } from '../context';
import { forbidden, HttpError, parseWith, unauthorized } from '../errors';
import type { AdminActor } from '../services/account-admin';
import type { Caller } from '../services/accounts';
import type { AdminAudit } from '../services/admin-audit';
import type { C } from './hono-env';
import type { ListCache } from './list-cache';

export { type C, caller, type Env } from './hono-env';

/** What every route module is given: the services, the body reader and the GET /api/posts answer cache. */
export interface RouteDeps {
  accounts: AppContext['accounts'];
  posts: AppContext['posts'];
  site: AppContext['site'];
  outbox: AppContext['outbox'];
  audit: AppContext['audit'];
  json: (c: C) => Promise<unknown>;
  listCache: ListCache;
  /** The client's address as the rate limits key it (socket, or X-Forwarded-For from a trusted proxy). */
  clientAddress: (c: C) => string;
  now: () => number;
  assessmentRepeatMs: number;
}

const MAX_LIMIT = 100;
/** Offset paging costs in proportion to the offset; beyond this, pages are asked with `cursor`. */
export const MAX_OFFSET = 10_000;
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
  offset: v.optional(
    IntString(0, MAX_OFFSET, `offset must be an integer from 0 to ${MAX_OFFSET}; use cursor for later pages`),
    '0',
  ),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200, 'Invalid cursor: load the first page again'))),
  tag: v.optional(Term),
  category: v.optional(Term),
  content_type: v.optional(v.picklist(ContentTypeSchema.options, 'Unknown content type')),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'Search text is at most 200 characters'))),
});

export type ListQueryParams = ReturnType<typeof parseListQuery>;

/**
 * Parsed list queries by their query string: a list is asked with the same few query strings again and
 * again, and parsing one through the schema cost more than the rest of the routing (issue 36). Only valid
 * queries are kept (an invalid one throws before), each answer a fresh copy.
 */
const parsedQueries = new Map<string, ListQueryParams>();

export function listQuery(c: C): ListQueryParams {
  const url = c.req.url;
  const key = url.slice(url.indexOf('?') + 1 || url.length);
  const hit = parsedQueries.get(key);
  if (hit) return { ...hit };
  const q = parseListQuery(c);
  if (parsedQueries.size >= 1000) parsedQueries.clear();
  parsedQueries.set(key, q);
  return { ...q };
}

function parseListQuery(c: C) {
  const raw: Record<string, unknown> = {};
  for (const key of ['status', 'limit', 'offset', 'cursor', 'tag', 'category', 'content_type', 'q']) {
    const value = c.req.query(key);
    if (value !== undefined && value !== '') raw[key] = value;
  }
  // Accept both ?visibility=a&visibility=b and ?visibility=a,b.
  const vis = (c.req.queries('visibility') ?? []).flatMap((s) => s.split(',')).filter((s) => s !== '');
  if (vis.length) raw.visibility = vis;
  const q = parseWith(ListQuerySchema, raw);
  if (q.cursor !== undefined && q.offset > 0)
    throw new HttpError(400, 'Use either cursor or offset, not both');
  return {
    status: q.status,
    visibility: q.visibility ?? null,
    limit: q.limit,
    offset: q.offset,
    tag: q.tag ?? null,
    category: q.category ?? null,
    contentType: q.content_type ?? null,
    q: q.q || null,
    cursor: q.cursor ?? null,
  };
}

/**
 * The request body as JSON, read only by the routes that take one (so GETs never touch the stream).
 * Over the limit is a 413, malformed JSON a 400; never a 500.
 */
export async function body(c: C, limit: number): Promise<unknown> {
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

export function requireCaller(c: C): Caller {
  const who = c.get('caller');
  if (!who) throw unauthorized();
  return who;
}
export function requireAdmin(c: C): Caller {
  const who = requireCaller(c);
  if (!isAdmin(who.roles)) throw forbidden('Administrator role required');
  return who;
}

/** requireAdmin, and the administrator as the audit names them (issue 34: every admin change is audited). */
export function requireAdminActor(c: C, audit: AdminAudit): AdminActor {
  const who = requireAdmin(c);
  return { actor: { id: who.userId, username: who.username }, audit };
}
