import * as v from 'valibot';
import { HttpError } from '../errors';

/**
 * Opaque page cursors (docs/decisions/0013-post-lists-and-search.md). A cursor is base64url JSON naming the
 * list it belongs to and where the next page starts:
 * - `p`: published lists, after (published_at, id), newest first;
 * - `d`: draft lists (no published_at), after id;
 * - `m`: My Research, after (created_at, id);
 * - `s`: search, position `pos` in the ranking of the posts that existed when the first page was asked
 *   (`max` is the highest id then), so posts written while paging neither shift nor repeat results; `min`
 *   is the lowest id the ranking covers (services/search.ts: RANK_WINDOW).
 */
export type Cursor =
  | { k: 'p'; at: string; id: number }
  | { k: 'd'; id: number }
  | { k: 'm'; at: string; id: number }
  | { k: 's'; max: number; min: number; pos: number };

export const INVALID_CURSOR = 'Invalid cursor: load the first page again';

const Id = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const At = v.pipe(v.string(), v.maxLength(40));
const CursorSchema = v.variant('k', [
  v.strictObject({ k: v.literal('p'), at: At, id: Id }),
  v.strictObject({ k: v.literal('d'), id: Id }),
  v.strictObject({ k: v.literal('m'), at: At, id: Id }),
  v.strictObject({ k: v.literal('s'), max: Id, min: Id, pos: v.pipe(Id, v.maxValue(1_000_000)) }),
]);

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The cursor, which must be of `kind` (a cursor of another list is as invalid as garbage): else 400. */
export function decodeCursor<K extends Cursor['k']>(raw: string, kind: K): Extract<Cursor, { k: K }> {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw new HttpError(400, INVALID_CURSOR);
  }
  const result = v.safeParse(CursorSchema, parsed);
  if (!result.success || result.output.k !== kind) throw new HttpError(400, INVALID_CURSOR);
  return result.output as Extract<Cursor, { k: K }>;
}

/** One page of a list: the items, and the cursor of the next page when there is one. */
export interface Page<T> {
  items: T[];
  next: string | null;
}
