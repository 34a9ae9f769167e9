import * as v from 'valibot';

/**
 * `?page=` and `?limit=` of the admin lists (outbox, members, leads): strings in a query, numbers after
 * parsing; `page` from 1, `limit` from 1 to `max`. One rule so every list answers bad paging the same way.
 */
export const pageParam = () =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, 'page must be a positive number'),
      v.transform(Number),
      v.minValue(1, 'page must be a positive number'),
    ),
    '1',
  );

export const limitParam = (fallback: number, max = 100) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, `limit must be 1 to ${max}`),
      v.transform(Number),
      v.minValue(1, `limit must be 1 to ${max}`),
      v.maxValue(max, `limit must be 1 to ${max}`),
    ),
    String(fallback),
  );

/** The envelope of every paged admin answer. */
export const pageOf = <T extends v.GenericSchema>(item: T) =>
  v.object({ items: v.array(item), total: v.number(), page: v.number(), limit: v.number() });
