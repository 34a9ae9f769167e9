import type { Dialect } from './sql';

/**
 * The text the members search reads (issue 34, migration 15): username, email, first and last name,
 * space-separated, so "Jane Doe" finds first and last name together. SQLite's trigram index (users_search)
 * and PostgreSQL's trigram expression index (idx_users_search) hold exactly this expression, and the
 * query spells it the same way (PostgreSQL uses an expression index only for the identical expression).
 * Frozen with migration 15: another text is a new migration.
 */
export const MEMBER_SEARCH_TEXT = (prefix: string, dialect: Dialect = 'sqlite') =>
  `${prefix}username${dialect === 'postgres' ? '::text' : ''} || ' ' || ${prefix}email || ' ' || ${prefix}first_name || ' ' || ${prefix}last_name`;
