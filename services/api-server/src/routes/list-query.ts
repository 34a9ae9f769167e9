import { ContentTypeSchema, PostStatusSchema, VisibilitySchema } from '@app/contracts';
import * as v from 'valibot';
import { HttpError, parseWith } from '../errors';

/**
 * The query of the post lists and search (GET /api/posts, /api/posts/my, /api/posts/search), read from the
 * URL's query string: the hono routes and the list lane (src/http-list-lane.ts) parse it here, the same way.
 */

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

/** The part of a URL (absolute, or a request target) after its `?`, without a fragment; '' when none. */
export function queryString(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return '';
  const hash = url.indexOf('#', at);
  return hash < 0 ? url.slice(at + 1) : url.slice(at + 1, hash);
}

/**
 * Parsed list queries by their query string: a list is asked with the same few query strings again and
 * again, and parsing one through the schema cost more than the rest of the routing (issue 36). Only valid
 * queries are kept (an invalid one throws before), each answer a fresh copy.
 */
const parsedQueries = new Map<string, { query: ListQueryParams; teasers: string | null }>();

function parsed(query: string) {
  let hit = parsedQueries.get(query);
  if (!hit) {
    const params = new URLSearchParams(query);
    hit = { query: parseListQuery(params), teasers: params.get('teasers') };
    if (parsedQueries.size >= 1000) parsedQueries.clear();
    parsedQueries.set(query, hit);
  }
  return hit;
}

/** A list's query (400 with the schema's message when it is not one); each answer a fresh copy. */
export function listQueryOf(query: string): ListQueryParams {
  return { ...parsed(query).query };
}

/**
 * The query of a list that may show teasers (GET /api/posts, search): listQueryOf's and `teasers`, from
 * the same one parse of the query string. Lists without teasers (My Research) never look at it.
 */
export function teaserListQueryOf(query: string): ListQueryParams & { teasers: boolean } {
  const { query: q, teasers } = parsed(query);
  return { ...q, teasers: teasersOf(teasers) };
}

function parseListQuery(params: URLSearchParams) {
  const raw: Record<string, unknown> = {};
  for (const key of ['status', 'limit', 'offset', 'cursor', 'tag', 'category', 'content_type', 'q']) {
    const value = params.get(key);
    if (value !== null && value !== '') raw[key] = value;
  }
  // Accept both ?visibility=a&visibility=b and ?visibility=a,b.
  const vis = params
    .getAll('visibility')
    .flatMap((s) => s.split(','))
    .filter((s) => s !== '');
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

/** `teasers=1` (or true) also lists posts above the caller's tier as teasers; absent or 0 does not. */
function teasersOf(raw: string | null): boolean {
  if (raw === null || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new HttpError(400, 'teasers must be 1 or 0');
}
