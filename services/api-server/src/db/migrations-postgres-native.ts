/**
 * Migration 28 on PostgreSQL (issue 49, docs/decisions/0046-postgresql-native-types.md): the columns that
 * PostgreSQL held in SQLite's shape take PostgreSQL's own types, converted in place in the migration's one
 * transaction. SQLite has nothing to do: its rows keep 1/0, ISO text and JSON text, which is what the pg type
 * parsers in db/postgres.ts make of the new types, so one code reads both engines.
 *
 * - booleans held as INTEGER 0/1 become `boolean`;
 * - times held as ISO text (`toISOString()`, in the "C" collation so that they sorted as bytes) become
 *   `timestamptz`: they compare and sort as times, and a malformed one can no longer be stored;
 * - the JSON documents the server stores and reads whole become `jsonb`: a document that is not JSON is
 *   refused by the column. The stored cards (posts.card_json) and the term lists stay TEXT on purpose: they
 *   are response bytes copied out as they are, and jsonb would reorder their keys.
 *
 * What stands on a converted column is dropped and made again around the change: the trigger whose WHEN
 * reads `consultation`, the card trigger (its UPDATE OF names the times), the partial index of pending
 * members (its predicate was `is_active = 0`), and the integer defaults. The functions that compared or
 * wrote the old shape are replaced: the lead counts' `contacted` is a boolean, and the card writes its times
 * through `api_time()` in the API's own format (json_build_object would write a timestamptz as
 * `2026-01-01T00:00:00+00:00`, not `2026-01-01T00:00:00.000Z`).
 *
 * Not converted: schema_migrations.applied_at (written by migrate() for both engines, read by no rule) and
 * the millisecond times, already BIGINT.
 */

/** The columns that hold 0 or 1, by table. */
const BOOLEANS: Record<string, string[]> = {
  users: ['is_active'],
  deploy_audit: ['forced'],
  deploy_tokens: ['admin'],
  market_assessments: ['consultation'],
  lead_counts: ['consultation', 'contacted'],
  outbox_attempts: ['ok'],
};

/** The columns that hold an ISO time as text, by table. */
const TIMES: Record<string, string[]> = {
  users: ['created_at', 'last_login'],
  posts: ['published_at', 'created_at', 'updated_at'],
  comments: ['created_at', 'updated_at'],
  market_assessments: ['created_at'],
  deploy_audit: ['at'],
  deploy_overrides: ['created_at', 'expires_at', 'last_used_at', 'revoked_at'],
  deploy_previews: ['created_at', 'expires_at', 'revoked_at'],
  deploy_releases: ['created_at'],
  deploy_tokens: ['created_at', 'last_used_at', 'revoked_at'],
  deployments: ['updated_at'],
};

/** The JSON documents stored and read whole, by table. */
const DOCUMENTS: Record<string, string[]> = {
  market_assessments: ['payload'],
  admin_audit: ['detail'],
  deployments: ['manifest_json'],
  deploy_releases: ['info_json'],
};

/**
 * The columns of BOOLEANS that had `DEFAULT 0`: PostgreSQL cannot cast a default to the new type, so it goes
 * before the type changes and comes back after (as does admin_audit.detail's '{}').
 */
const FALSE_BY_DEFAULT: [string, string][] = [
  ['users', 'is_active'],
  ['deploy_audit', 'forced'],
  ['deploy_tokens', 'admin'],
  ['market_assessments', 'consultation'],
];

/** One ALTER TABLE per table: every column of the table converted in one rewrite. */
function alterTables(columns: Record<string, string[]>, type: string, using: (c: string) => string) {
  return Object.entries(columns)
    .map(
      ([table, cols]) =>
        `ALTER TABLE ${table} ${cols.map((c) => `ALTER COLUMN ${c} TYPE ${type} USING ${using(c)}`).join(', ')};`,
    )
    .join('\n');
}

/** A post's card, as migration 18 made it, with its times in the API's format (see above). */
const POSTS_CARD = `
  CREATE OR REPLACE FUNCTION posts_card() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.card_json := json_build_object(
      'id', NEW.id, '_id', CAST(NEW.id AS TEXT), 'slug', NEW.slug, 'title', NEW.title,
      'summary', NEW.summary, 'excerpt', NEW.excerpt, 'status', NEW.status,
      'visibility', NEW.visibility, 'content_type', NEW.content_type,
      'published_at', api_time(NEW.published_at), 'created_at', api_time(NEW.created_at),
      'updated_at', api_time(NEW.updated_at),
      'tags', CAST(NEW.tags_json AS json), 'categories', CAST(NEW.categories_json AS json),
      'likes', NEW.like_count, 'comment_count', NEW.comment_count,
      'author', json_build_object('id', NEW.author_id, 'name', NEW.author_name))::text;
    RETURN NEW;
  END $$;
  CREATE TRIGGER posts_card BEFORE INSERT OR UPDATE OF slug, title, summary, excerpt, status, visibility,
    content_type, published_at, created_at, updated_at, tags_json, categories_json, like_count, comment_count,
    author_id, author_name ON posts FOR EACH ROW EXECUTE FUNCTION posts_card();`;

/** The lead counts (migration 14), with `contacted` a boolean. */
const LEAD_COUNTS = `
  CREATE OR REPLACE FUNCTION lead_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      UPDATE lead_counts SET n = n - 1 WHERE consultation = OLD.consultation
        AND contacted = (OLD.contacted_at IS NOT NULL) AND urgency = OLD.urgency
        AND industry = OLD.industry AND company_size = OLD.company_size;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO lead_counts (consultation, contacted, urgency, industry, company_size, n)
        VALUES (NEW.consultation, NEW.contacted_at IS NOT NULL, NEW.urgency, NEW.industry, NEW.company_size, 1)
        ON CONFLICT (consultation, contacted, urgency, industry, company_size)
        DO UPDATE SET n = lead_counts.n + 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      DELETE FROM lead_counts WHERE n <= 0;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER lead_counts_upd AFTER UPDATE OF consultation, contacted_at, urgency, industry, company_size
    ON market_assessments FOR EACH ROW
    WHEN (OLD.consultation IS DISTINCT FROM NEW.consultation
      OR (OLD.contacted_at IS NULL) IS DISTINCT FROM (NEW.contacted_at IS NULL)
      OR OLD.urgency IS DISTINCT FROM NEW.urgency OR OLD.industry IS DISTINCT FROM NEW.industry
      OR OLD.company_size IS DISTINCT FROM NEW.company_size)
    EXECUTE FUNCTION lead_counts_change();`;

export const POSTGRES_NATIVE_TYPES = `
  -- A time as the API writes it (Date.prototype.toISOString): UTC, milliseconds, Z.
  CREATE OR REPLACE FUNCTION api_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
    $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

  DROP TRIGGER lead_counts_upd ON market_assessments;
  DROP TRIGGER posts_card ON posts;
  DROP INDEX idx_users_pending_from;
  ${FALSE_BY_DEFAULT.map(([t, c]) => `ALTER TABLE ${t} ALTER COLUMN ${c} DROP DEFAULT;`).join('\n')}
  ALTER TABLE admin_audit ALTER COLUMN detail DROP DEFAULT;

  ${alterTables(BOOLEANS, 'boolean', (c) => `${c} <> 0`)}
  ${alterTables(TIMES, 'timestamptz', (c) => `CAST(${c} AS timestamptz)`)}
  ${alterTables(DOCUMENTS, 'jsonb', (c) => `CAST(${c} AS jsonb)`)}

  ${FALSE_BY_DEFAULT.map(([t, c]) => `ALTER TABLE ${t} ALTER COLUMN ${c} SET DEFAULT FALSE;`).join('\n')}
  ALTER TABLE admin_audit ALTER COLUMN detail SET DEFAULT '{}';
  CREATE INDEX idx_users_pending_from ON users(registered_from) WHERE is_active = FALSE;
  ${LEAD_COUNTS}
  ${POSTS_CARD}
`;
