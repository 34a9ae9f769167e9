import type { Visibility } from '@app/contracts';
import { isAdmin, openableVisibilities } from '@app/contracts';
import type { DialectSql } from '../db/dialect';
import type { Caller } from './accounts';

/**
 * The access rule of lists and search as SQL, written for one kind of caller and one kind of query at a
 * time (docs/decisions/0023-cards-as-stored-json.md). One general statement that held every case behind
 * parameters (`@admin = 1 OR …`, `@tag IS NULL OR …`, the openable visibilities read with json_each three
 * times) spent about 0.1–0.2 ms of each execution on branches that could not apply. A shape is what
 * decides the SQL text; the values stay parameters. Each shape is prepared once (PostReader caches by
 * `shapeKey`), and there are few: the role tiers times the optional filters used.
 */
export interface QueryShape {
  /** An administrator sees every post in lists (search has no such bypass). */
  admin: boolean;
  /** A guest has no posts of their own. */
  guest: boolean;
  /** The visibilities the caller may open, inlined as literals: our own constants, never input. */
  open: readonly Visibility[];
  /** Also posts above the caller's tier, as teasers. */
  teasers: boolean;
  /** Which optional filters the query has (their values are parameters). */
  vis: boolean;
  contentType: boolean;
  tag: boolean;
  category: boolean;
}

export interface ShapeFilters {
  visibility: readonly Visibility[] | null;
  contentType: string | null;
  tag: string | null;
  category: string | null;
  teasers?: boolean;
}

export function queryShape(caller: Caller | null, f: ShapeFilters): QueryShape {
  const roles = caller ? caller.roles : null;
  return {
    admin: isAdmin(roles),
    guest: caller === null,
    open: openableVisibilities(roles),
    teasers: f.teasers === true,
    vis: f.visibility !== null,
    contentType: f.contentType !== null,
    tag: f.tag !== null,
    category: f.category !== null,
  };
}

export const shapeKey = (s: QueryShape) => JSON.stringify(s);

const literal = (value: string) => {
  if (!/^[a-z0-9_-]+$/.test(value)) throw new Error(`not a visibility: ${value}`);
  return `'${value}'`;
};

/**
 * A caller may see a post when they wrote it, administer the site (lists only), or it is published at an
 * openable tier. Always TRUE or FALSE (never NULL, also for a post whose author is gone): a teaser is its
 * negation.
 */
export function visibleSql(s: QueryShape, { adminSeesAll }: { adminSeesAll: boolean }): string {
  if (adminSeesAll && s.admin) return 'TRUE';
  const parts: string[] = [];
  if (!s.guest) parts.push('COALESCE(p.author_id = @uid, FALSE)');
  if (s.open.length > 0) {
    parts.push(`(p.status = 'published' AND p.visibility IN (${s.open.map(literal).join(', ')}))`);
  }
  return parts.length > 0 ? `(${parts.join(' OR ')})` : 'FALSE';
}

/**
 * A teaser: asked for, published, above the caller's tier, never private. The visibility filter chooses
 * among the posts the caller may open (SPEC §6's Explore request stays as it is); teasers come on top.
 * Null when this shape asks for none (or the caller sees everything).
 */
export function teaserSql(s: QueryShape, visible: string): string | null {
  if (!s.teasers || visible === 'TRUE') return null;
  return `(p.status = 'published' AND p.visibility <> 'private' AND NOT ${visible})`;
}

/** Who sees a row: visible rows (narrowed by the visibility filter), teasers on top when asked. */
export function accessSql(s: QueryShape, visible: string, d: DialectSql): string {
  const narrowed = s.vis ? `(${visible} AND p.visibility ${d.inJsonArray('vis')})` : visible;
  const teaser = teaserSql(s, visible);
  return teaser ? `(${narrowed} OR ${teaser})` : narrowed;
}

/** 1 for a row that is a teaser, else 0. */
export const lockedSql = (s: QueryShape, visible: string) =>
  teaserSql(s, visible) ? `CASE WHEN ${visible} THEN 0 ELSE 1 END` : '0';

/** The optional filters shared by lists and search (the search text itself is matched by FTS5). */
export function filtersSql(s: QueryShape): string {
  const parts: string[] = [];
  if (s.contentType) parts.push('AND p.content_type = @content_type');
  if (s.tag) {
    parts.push(
      "AND EXISTS (SELECT 1 FROM post_terms t WHERE t.post_id = p.id AND t.kind = 'tag' AND t.name = @tag)",
    );
  }
  if (s.category) {
    parts.push(
      "AND EXISTS (SELECT 1 FROM post_terms t WHERE t.post_id = p.id AND t.kind = 'category' AND t.name = @category)",
    );
  }
  return parts.join('\n  ');
}

/** A basic member's Explore (public + members, teasers on): the shape the benchmark prints plans for. */
export const EXPLORE_SHAPE: QueryShape = {
  admin: false,
  guest: false,
  open: ['public', 'members_only'],
  teasers: true,
  vis: true,
  contentType: false,
  tag: false,
  category: false,
};
