/**
 * An author's name as cards, posts and comments show it: the full name, or the username when the name is
 * blank. `u` is a users row (an alias, or NEW/OLD in a trigger). Posts keep it in posts.author_name
 * (migration 17, kept by triggers when a post is written or its author renamed), so a list reads no users
 * row per card; comments read it from the users row. Frozen with migration 17: another rule is a new
 * migration that refills the column.
 */
export const AUTHOR_NAME_OF = (u: string) =>
  `COALESCE(NULLIF(trim(${u}.first_name || ' ' || ${u}.last_name), ''), ${u}.username)`;
