import { isAdmin } from '@app/contracts';
import type { AppContext } from '../context';
import { forbidden, HttpError, unauthorized } from '../errors';
import type { AdminActor } from '../services/account-admin';
import type { Caller } from '../services/accounts';
import type { AdminAudit } from '../services/admin-audit';
import type { C } from './hono-env';
import type { ListCache } from './list-cache';
import { type ListQueryParams, listQueryOf, queryString, teaserListQueryOf } from './list-query';

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

/** A list's query, parsed from the URL (routes/list-query.ts: the hono routes and the list lane share it). */
export function listQuery(c: C): ListQueryParams {
  return listQueryOf(queryString(c.req.url));
}

/** A list's query with `teasers` (GET /api/posts, search; routes/list-query.ts). */
export const teaserListQuery = (c: C) => teaserListQueryOf(queryString(c.req.url));

/**
 * The request body as JSON, read only by the routes that take one (so GETs never touch the stream).
 * Over the limit is a 413, malformed JSON a 400; never a 500.
 */
export async function body(c: C, limit: number): Promise<unknown> {
  const text = await bodyText(c, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
}

/** The body as text, read up to `limit` bytes (413 past it): for a route that checks a MAC over the bytes. */
export async function bodyText(c: C, limit: number): Promise<string> {
  const tooLarge = () => new HttpError(413, 'Request body too large', {});
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > limit) {
    c.header('Connection', 'close');
    throw tooLarge();
  }
  const stream = c.req.raw.body;
  if (!stream) return '';
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
  return Buffer.concat(chunks).toString('utf8');
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
