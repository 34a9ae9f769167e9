/** URL-safe slug from a title. Never all digits, so a slug can not be mistaken for an id. */
export function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  if (base === '') return 'post';
  return /^\d+$/.test(base) ? `post-${base}` : base;
}

/**
 * Stores something under the first free slug among base, base-2, base-3, …: skips the taken ones by looking,
 * then `insert`s, which answers undefined when another writer took that slug in between (its INSERT has
 * ON CONFLICT (slug) DO NOTHING: on PostgreSQL it waits for that writer's commit, then yields). Moves on to
 * the next slug then, so writers of one title at once all succeed with slugs of their own (issue 49).
 */
export async function insertUnderFreeSlug<T>(
  base: string,
  taken: (slug: string) => Promise<boolean>,
  insert: (slug: string) => Promise<T | undefined>,
): Promise<T> {
  let looking = true;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (looking && (await taken(candidate))) continue;
    looking = false;
    const stored = await insert(candidate);
    if (stored !== undefined) return stored;
  }
}
