import { AUTHOR_NAME_OF } from './author-name';
import { MEMBER_SEARCH_TEXT } from './member-search';
import { POSTGRES_MIGRATIONS } from './migrations-postgres';
import { compileChanges, type SchemaChange } from './schema/changes';

/**
 * Numbered, append-only migrations. Never edit one that has shipped: add the next number instead.
 * Each runs in a transaction and is recorded in schema_migrations. `sql` is SQLite's text; PostgreSQL's
 * for the same version is in migrations-postgres.ts (one list of versions, both spellings).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  postgres?: string;
  /**
   * From migration 29 on, the change to the schema written once (schema/changes.ts): each engine's DDL is
   * compiled from it, before the migration's own `sql` / `postgres` (what stays per engine: triggers, search).
   */
  changes?: readonly SchemaChange[];
}

/**
 * The fields of a card (PostCardSchema) that change only when the post itself is written, as JSON
 * arguments of json_object (migration 9; docs/decisions/0023-cards-as-stored-json.md). `row` is NEW in a
 * trigger or the table when filling. Frozen with migration 9: a new card field is a new migration that
 * redefines the triggers and refills the column.
 */
const POST_FIELDS = (row: string) => `
  'id', ${row}.id, '_id', CAST(${row}.id AS TEXT), 'slug', ${row}.slug, 'title', ${row}.title,
  'summary', ${row}.summary, 'excerpt', ${row}.excerpt, 'status', ${row}.status,
  'visibility', ${row}.visibility, 'content_type', ${row}.content_type, 'published_at', ${row}.published_at,
  'created_at', ${row}.created_at, 'updated_at', ${row}.updated_at,
  'tags', json(${row}.tags_json), 'categories', json(${row}.categories_json)`;

/** Migrations 9 to 17's stored card: the post's own fields only. */
const STORED_CARD = (row: string) => `json_object(${POST_FIELDS(row)})`;

/**
 * Migration 18's stored card (docs/decisions/0034-what-a-stored-card-holds.md): the post's fields and what
 * changes only with a write to its likes, its comments or its author: the two counts and the author (`name`
 * is the SQL of the author's name where this statement cannot read it from `row`). Only the views (counted
 * by reads) and what depends on the caller (liked, a teaser) are added per read, by services/post-model.ts.
 */
const CARD = (row: string, name: string) => `json_object(${POST_FIELDS(row)},
  'likes', ${row}.like_count, 'comment_count', ${row}.comment_count,
  'author', json_object('id', ${row}.author_id, 'name', ${name}))`;

/** The name of NEW's author, read from users (a trigger's UPDATE cannot see the author_name it sets). */
const NAME_OF_AUTHOR = `(SELECT ${AUTHOR_NAME_OF('u')} FROM users u WHERE u.id = NEW.author_id)`;

const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL UNIQUE COLLATE NOCASE,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL DEFAULT '',
        street TEXT NOT NULL DEFAULT '',
        city TEXT NOT NULL DEFAULT '',
        postal_code TEXT NOT NULL DEFAULT '',
        country TEXT NOT NULL DEFAULT '',
        is_active INTEGER NOT NULL DEFAULT 0,
        preferences TEXT,
        created_at TEXT NOT NULL,
        last_login TEXT
      );
      CREATE TABLE user_roles (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        PRIMARY KEY (user_id, role)
      ) WITHOUT ROWID;
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX idx_sessions_user ON sessions(user_id);
      CREATE TABLE login_throttle (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        window_start INTEGER NOT NULL,
        locked_until INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;
      CREATE TABLE posts (
        id INTEGER PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        excerpt TEXT,
        status TEXT NOT NULL CHECK (status IN ('draft', 'published')),
        visibility TEXT NOT NULL,
        content_type TEXT NOT NULL,
        author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        published_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        views INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE post_terms (
        post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('tag', 'category')),
        name TEXT NOT NULL,
        PRIMARY KEY (post_id, kind, name)
      ) WITHOUT ROWID;
      CREATE TABLE post_likes (
        post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (post_id, user_id)
      ) WITHOUT ROWID;
      CREATE TABLE comments (
        id INTEGER PRIMARY KEY,
        post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
        author_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX idx_comments_post ON comments(post_id, created_at);
      CREATE TABLE comment_likes (
        comment_id INTEGER NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (comment_id, user_id)
      ) WITHOUT ROWID;
      CREATE TABLE dashboards (
        slug TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        position INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE site_records (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE market_assessments (
        id INTEGER PRIMARY KEY,
        idempotency_key TEXT UNIQUE,
        user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        email TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'post list indexes',
    sql: `
      -- The list and search read published posts newest first: this index serves both the filter and the order.
      CREATE INDEX idx_posts_status_published ON posts(status, published_at DESC, id DESC);
      CREATE INDEX idx_posts_author ON posts(author_id, created_at DESC);
      CREATE INDEX idx_post_terms_name ON post_terms(kind, name);
      CREATE INDEX idx_post_likes_user ON post_likes(user_id);
    `,
  },
  {
    version: 3,
    name: 'denormalized counts and terms for the list query',
    sql: `
      -- Tags and categories as JSON on the post, so a list needs no second query; post_terms stays the
      -- index for filtering and counting.
      ALTER TABLE posts ADD COLUMN tags_json TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE posts ADD COLUMN categories_json TEXT NOT NULL DEFAULT '[]';
      UPDATE posts SET
        tags_json = (SELECT json_group_array(name) FROM
          (SELECT name FROM post_terms t WHERE t.post_id = posts.id AND t.kind = 'tag' ORDER BY name)),
        categories_json = (SELECT json_group_array(name) FROM
          (SELECT name FROM post_terms t WHERE t.post_id = posts.id AND t.kind = 'category' ORDER BY name));
      -- Counted once on write instead of by two correlated subqueries per listed post.
      ALTER TABLE posts ADD COLUMN like_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE posts ADD COLUMN comment_count INTEGER NOT NULL DEFAULT 0;
      UPDATE posts SET
        like_count = (SELECT COUNT(*) FROM post_likes l WHERE l.post_id = posts.id),
        comment_count = (SELECT COUNT(*) FROM comments c WHERE c.post_id = posts.id);
      CREATE TRIGGER post_likes_ins AFTER INSERT ON post_likes BEGIN
        UPDATE posts SET like_count = like_count + 1 WHERE id = NEW.post_id;
      END;
      CREATE TRIGGER post_likes_del AFTER DELETE ON post_likes BEGIN
        UPDATE posts SET like_count = like_count - 1 WHERE id = OLD.post_id;
      END;
      CREATE TRIGGER comments_ins AFTER INSERT ON comments BEGIN
        UPDATE posts SET comment_count = comment_count + 1 WHERE id = NEW.post_id;
      END;
      CREATE TRIGGER comments_del AFTER DELETE ON comments BEGIN
        UPDATE posts SET comment_count = comment_count - 1 WHERE id = OLD.post_id;
      END;
    `,
  },
  {
    version: 4,
    name: 'rollout health events',
    sql: `
      -- One row per health report of the shell (no user, no address): which version of which remote did what.
      -- at is milliseconds since the epoch. Rows older than 30 days are pruned by RolloutHealthService.
      CREATE TABLE rollout_health_events (
        id INTEGER PRIMARY KEY,
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        track TEXT NOT NULL CHECK (track IN ('stable', 'canary', 'preview')),
        event TEXT NOT NULL CHECK (event IN ('load', 'load-failure', 'render-error')),
        ms INTEGER,
        at INTEGER NOT NULL
      );
      -- (remote, version, at) serves the health gate's windowed counts; event at the end makes it covering for
      -- those counts and for the admin summary, so neither reads the table.
      CREATE INDEX idx_rollout_health_version_at ON rollout_health_events(remote, version, at, event);
      -- Pruning deletes a range of old rows instead of scanning the table.
      CREATE INDEX idx_rollout_health_at ON rollout_health_events(at);
    `,
  },
  {
    version: 5,
    name: 'plain-text excerpts',
    sql: `
      -- Excerpts made by the old regex dropped hyphens ("3-10%" read "3 10%") and kept HTML as text. NULL
      -- marks them stale; PostWriter recomputes every NULL excerpt with services/excerpt.ts at startup.
      UPDATE posts SET excerpt = NULL;
    `,
  },
  {
    version: 6,
    name: 'full-text search and keyset list indexes',
    sql: `
      -- Search: an external-content FTS5 index over posts (the text is stored once, in posts). unicode61 with
      -- diacritics folded; prefix indexes of 1 to 3 characters keep the last typed word's prefix query an index
      -- read (a prefix of 1 character costs about what one common word costs).
      CREATE VIRTUAL TABLE posts_fts USING fts5(
        title, summary, content,
        content = 'posts', content_rowid = 'id',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
      );
      INSERT INTO posts_fts(posts_fts) VALUES ('rebuild');
      -- Kept in step by triggers, so every writer (service, seed, bench) is covered. Only a change of the
      -- indexed text touches the index: a view count or a visibility change does not.
      CREATE TRIGGER posts_fts_ins AFTER INSERT ON posts BEGIN
        INSERT INTO posts_fts(rowid, title, summary, content) VALUES (NEW.id, NEW.title, NEW.summary, NEW.content);
      END;
      CREATE TRIGGER posts_fts_del AFTER DELETE ON posts BEGIN
        INSERT INTO posts_fts(posts_fts, rowid, title, summary, content)
          VALUES ('delete', OLD.id, OLD.title, OLD.summary, OLD.content);
      END;
      CREATE TRIGGER posts_fts_upd AFTER UPDATE OF title, summary, content ON posts BEGIN
        INSERT INTO posts_fts(posts_fts, rowid, title, summary, content)
          VALUES ('delete', OLD.id, OLD.title, OLD.summary, OLD.content);
        INSERT INTO posts_fts(rowid, title, summary, content) VALUES (NEW.id, NEW.title, NEW.summary, NEW.content);
      END;
      -- Lists page by (published_at, id) newest first. The access filter reads visibility, author_id and
      -- content_type: in the index they are checked before the row (and its body) is read at all.
      DROP INDEX idx_posts_status_published;
      CREATE INDEX idx_posts_status_published
        ON posts(status, published_at DESC, id DESC, visibility, author_id, content_type);
      -- Search checks access for every match: this covering index answers it without reading a post's row
      -- (its columns after the body sit on overflow pages).
      CREATE INDEX idx_posts_access ON posts(id, status, visibility, author_id, content_type);
      -- My Research pages by (created_at, id).
      DROP INDEX idx_posts_author;
      CREATE INDEX idx_posts_author ON posts(author_id, created_at DESC, id DESC);
    `,
  },
  {
    version: 7,
    name: 'tag, category and report counts kept on write',
    sql: `
      -- Tag and category counts per visibility of published posts, kept current by triggers in the same
      -- transaction as every write, so GET /api/posts/tags and /categories read a few rows instead of
      -- grouping every post (1.3 s at 100,000 posts). n counts published posts; a row at 0 is removed.
      CREATE TABLE term_counts (
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        visibility TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (kind, visibility, name)
      ) WITHOUT ROWID;
      INSERT INTO term_counts (kind, name, visibility, n)
        SELECT t.kind, t.name, p.visibility, COUNT(*) FROM post_terms t JOIN posts p ON p.id = t.post_id
        WHERE p.status = 'published' GROUP BY t.kind, t.name, p.visibility;
      CREATE TRIGGER term_counts_term_ins AFTER INSERT ON post_terms BEGIN
        INSERT INTO term_counts (kind, name, visibility, n)
          SELECT NEW.kind, NEW.name, p.visibility, 1 FROM posts p WHERE p.id = NEW.post_id AND p.status = 'published'
          ON CONFLICT (kind, visibility, name) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER term_counts_term_del AFTER DELETE ON post_terms BEGIN
        UPDATE term_counts SET n = n - 1 WHERE kind = OLD.kind AND name = OLD.name
          AND visibility = (SELECT p.visibility FROM posts p WHERE p.id = OLD.post_id AND p.status = 'published');
        DELETE FROM term_counts WHERE kind = OLD.kind AND name = OLD.name AND n <= 0;
      END;
      -- Publishing, unpublishing or a new visibility moves the post's terms from one count to another.
      CREATE TRIGGER term_counts_post_upd AFTER UPDATE OF status, visibility ON posts
        WHEN OLD.status IS NOT NEW.status OR OLD.visibility IS NOT NEW.visibility BEGIN
        UPDATE term_counts SET n = n - 1 WHERE OLD.status = 'published' AND visibility = OLD.visibility
          AND (kind, name) IN (SELECT kind, name FROM post_terms WHERE post_id = OLD.id);
        DELETE FROM term_counts WHERE n <= 0;
        INSERT INTO term_counts (kind, name, visibility, n)
          SELECT kind, name, NEW.visibility, 1 FROM post_terms WHERE post_id = NEW.id AND NEW.status = 'published'
          ON CONFLICT (kind, visibility, name) DO UPDATE SET n = n + 1;
      END;
      -- A deleted post's terms are deleted while the post is still there, so term_counts_term_del sees its
      -- status and visibility (the ON DELETE CASCADE would run after the row is gone).
      CREATE TRIGGER term_counts_post_del BEFORE DELETE ON posts BEGIN
        DELETE FROM post_terms WHERE post_id = OLD.id;
      END;
      -- The report's per type and visibility counts, the same way.
      CREATE TABLE post_counts (
        content_type TEXT NOT NULL,
        visibility TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (content_type, visibility)
      ) WITHOUT ROWID;
      INSERT INTO post_counts (content_type, visibility, n)
        SELECT content_type, visibility, COUNT(*) FROM posts WHERE status = 'published' GROUP BY 1, 2;
      CREATE TRIGGER post_counts_ins AFTER INSERT ON posts WHEN NEW.status = 'published' BEGIN
        INSERT INTO post_counts (content_type, visibility, n) VALUES (NEW.content_type, NEW.visibility, 1)
          ON CONFLICT (content_type, visibility) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER post_counts_upd AFTER UPDATE OF status, visibility, content_type ON posts
        WHEN OLD.status IS NOT NEW.status OR OLD.visibility IS NOT NEW.visibility
          OR OLD.content_type IS NOT NEW.content_type BEGIN
        UPDATE post_counts SET n = n - 1 WHERE OLD.status = 'published'
          AND content_type = OLD.content_type AND visibility = OLD.visibility;
        INSERT INTO post_counts (content_type, visibility, n)
          SELECT NEW.content_type, NEW.visibility, 1 WHERE NEW.status = 'published'
          ON CONFLICT (content_type, visibility) DO UPDATE SET n = n + 1;
        DELETE FROM post_counts WHERE n <= 0;
      END;
      CREATE TRIGGER post_counts_del AFTER DELETE ON posts WHEN OLD.status = 'published' BEGIN
        UPDATE post_counts SET n = n - 1 WHERE content_type = OLD.content_type AND visibility = OLD.visibility;
        DELETE FROM post_counts WHERE n <= 0;
      END;
      -- The report's most read posts: walked from the top of this index instead of sorting every post.
      CREATE INDEX idx_posts_views ON posts(status, views DESC, id);
    `,
  },
  {
    version: 8,
    name: 'rate limits',
    sql: `
      -- One counter per limit and client (src/rate-limit/sql-store.ts); every API instance on this file
      -- counts into the same row. Expired rows are pruned by reset_at.
      CREATE TABLE rate_limit_counters (
        key TEXT PRIMARY KEY,
        hits INTEGER NOT NULL,
        reset_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX idx_rate_limit_counters_reset ON rate_limit_counters(reset_at);
      -- What was refused, per limit and subject (address or account), for pnpm admin limited.
      CREATE TABLE rate_limit_refusals (
        limit_name TEXT NOT NULL,
        subject TEXT NOT NULL,
        route TEXT NOT NULL,
        count INTEGER NOT NULL,
        first_at INTEGER NOT NULL,
        last_at INTEGER NOT NULL,
        PRIMARY KEY (limit_name, subject)
      ) WITHOUT ROWID;
      CREATE INDEX idx_rate_limit_refusals_last ON rate_limit_refusals(last_at);
      -- Where a registration came from, so the operator can reject a flood of pending ones by address.
      ALTER TABLE users ADD COLUMN registered_from TEXT;
      CREATE INDEX idx_users_pending_from ON users(registered_from) WHERE is_active = 0;
      -- The repeat-assessment rule looks up the latest assessment of an email.
      CREATE INDEX idx_market_assessments_email ON market_assessments(email COLLATE NOCASE, created_at);
    `,
  },
  {
    version: 9,
    name: 'cards stored as JSON',
    sql: `
      -- A list of 50 cards built column by column cost ~0.5 ms at 100,000 posts, most of it turning ~20
      -- columns per row into JavaScript values; one stored JSON text per row costs a fifth of that.
      -- Kept in step by triggers, like the search index and the counts, so every writer is covered. The
      -- inner UPDATE touches card_json only, which no trigger watches.
      ALTER TABLE posts ADD COLUMN card_json TEXT NOT NULL DEFAULT '{}';
      CREATE TRIGGER posts_card_ins AFTER INSERT ON posts BEGIN
        UPDATE posts SET card_json = ${STORED_CARD('NEW')} WHERE id = NEW.id;
      END;
      CREATE TRIGGER posts_card_upd AFTER UPDATE OF slug, title, summary, excerpt, status, visibility,
        content_type, published_at, created_at, updated_at, tags_json, categories_json ON posts BEGIN
        UPDATE posts SET card_json = ${STORED_CARD('NEW')} WHERE id = NEW.id;
      END;
      UPDATE posts SET card_json = ${STORED_CARD('posts')};
      -- The start-up check for posts without an excerpt (services/post-writes.ts) read every row: 1.4 s at
      -- 100,000 posts. Only rows that still need one are in this index.
      CREATE INDEX idx_posts_without_excerpt ON posts(id) WHERE excerpt IS NULL;
    `,
  },
  {
    version: 10,
    name: 'health reports with tickets',
    sql: `
      -- Issue 31 (docs/decisions/0027-health-gate.md): a report counts only with the ticket of the page view
      -- that was served the version, once per kind. The old unauthenticated events prove nothing: dropped.
      DROP TABLE rollout_health_events;
      CREATE TABLE rollout_health_signals (
        id INTEGER PRIMARY KEY,
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        track TEXT NOT NULL CHECK (track IN ('stable', 'canary', 'preview')),
        kind TEXT NOT NULL CHECK (kind IN ('load', 'load-failure', 'render-error', 'runtime-error', 'lcp', 'inp', 'cls')),
        value REAL,
        visitor TEXT NOT NULL,
        ticket TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      -- Once per ticket, version and kind: a replay is a conflict here, whichever instance receives it.
      CREATE UNIQUE INDEX idx_rollout_signals_once ON rollout_health_signals(ticket, remote, version, kind);
      CREATE INDEX idx_rollout_signals_version_at ON rollout_health_signals(remote, version, at);
      CREATE INDEX idx_rollout_signals_at ON rollout_health_signals(at);
      -- Refused reports, counted per reason and minute: an attack of any size is a few rows.
      CREATE TABLE rollout_health_refusals (
        reason TEXT NOT NULL,
        minute INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (reason, minute)
      );
    `,
  },
  {
    version: 11,
    name: 'deploy control plane',
    sql: `
      -- Issue 33 (docs/decisions/0030-deploy-control-plane.md): the deployment of each environment lives here,
      -- changed by compare-and-swap on revision, so every API instance and every edge sees one history.
      CREATE TABLE deployments (
        environment TEXT PRIMARY KEY,
        revision INTEGER NOT NULL,
        manifest_json TEXT NOT NULL,
        updated_at TEXT
      );
      CREATE TABLE deploy_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        environment TEXT NOT NULL,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        token_name TEXT,
        action TEXT NOT NULL,
        remote TEXT NOT NULL,
        from_state TEXT,
        to_state TEXT,
        reason TEXT,
        forced INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX idx_deploy_audit_env_remote ON deploy_audit(environment, remote, id);
      -- What each release is (its release.json): written by the upload, read by the commands' checks.
      CREATE TABLE deploy_releases (
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        entry_integrity TEXT,
        info_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (remote, version)
      );
      -- Tokens are random 256-bit secrets: their SHA-256 is stored, never the token.
      CREATE TABLE deploy_tokens (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL UNIQUE,
        admin INTEGER NOT NULL DEFAULT 0,
        remotes TEXT NOT NULL DEFAULT '',
        environments TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        revoked_at TEXT,
        last_used_at TEXT
      );
    `,
  },
  {
    version: 12,
    name: 'outbox and password resets',
    sql: `
      -- Issue 34 (docs/decisions/0031-outbox-and-mail.md): every mail is a row written in the transaction that
      -- caused it; a loop in the API delivers it over SMTP. Times are epoch milliseconds (the context's clock).
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        to_address TEXT NOT NULL,
        subject TEXT NOT NULL,
        text_body TEXT NOT NULL,
        html_body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        sent_at INTEGER,
        claimed_until INTEGER
      );
      -- The sender's question: what is due (pending and due, or sending with a lapsed claim).
      CREATE INDEX idx_outbox_due ON outbox(status, next_attempt_at);
      CREATE TABLE outbox_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        outbox_id INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        ok INTEGER NOT NULL,
        error TEXT
      );
      CREATE INDEX idx_outbox_attempts_mail ON outbox_attempts(outbox_id, id);
      -- Reset tokens: 32 random bytes, only their SHA-256 stored; single use, short-lived.
      CREATE TABLE password_resets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      );
      CREATE INDEX idx_password_resets_user ON password_resets(user_id);
    `,
  },
  {
    version: 13,
    name: 'admin audit, lead columns, contacted',
    sql: `
      -- Issue 34: what administrators do in the browser (activate, reject, roles, company details, leads
      -- contacted), one row per action. Times are epoch milliseconds (the context's clock).
      CREATE TABLE admin_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        actor_id INTEGER,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX idx_admin_audit_at ON admin_audit(at DESC, id DESC);
      -- The members list: pending first, newest first, for 10,000 members a page at a time.
      CREATE INDEX idx_users_admin_order ON users(is_active, created_at DESC, id DESC);
      -- The leads table filters on these answers; copied out of the payload so an index can serve them.
      ALTER TABLE market_assessments ADD COLUMN industry TEXT NOT NULL DEFAULT '';
      ALTER TABLE market_assessments ADD COLUMN company_size TEXT NOT NULL DEFAULT '';
      ALTER TABLE market_assessments ADD COLUMN urgency TEXT NOT NULL DEFAULT '';
      ALTER TABLE market_assessments ADD COLUMN consultation INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE market_assessments ADD COLUMN contacted_at INTEGER;
      ALTER TABLE market_assessments ADD COLUMN contacted_by TEXT;
      ALTER TABLE market_assessments ADD COLUMN contacted_note TEXT NOT NULL DEFAULT '';
      UPDATE market_assessments SET
        industry = COALESCE(json_extract(payload, '$.industry'), ''),
        company_size = COALESCE(json_extract(payload, '$.companySize'), ''),
        urgency = COALESCE(json_extract(payload, '$.urgency'), ''),
        consultation = CASE WHEN json_extract(payload, '$.consultationInterest') IN (1, 'true') THEN 1 ELSE 0 END;
      CREATE INDEX idx_leads_created ON market_assessments(created_at DESC, id DESC);
      CREATE INDEX idx_leads_consultation ON market_assessments(consultation, created_at DESC, id DESC);
    `,
  },
  {
    version: 14,
    name: 'leads list index and counts',
    sql: `
      -- /admin/leads at 100,000 leads (measured, issue 34). One index in the list's order that also holds
      -- every filtered column: a page with filters walks index entries only and reads the table for the rows
      -- it returns (the two indexes of 13 read a table row per entry they rejected: 25-60 ms for a rare
      -- mix of filters); a count over a date range is a scan of this index alone (~4 ms at 100,000).
      DROP INDEX idx_leads_created;
      DROP INDEX idx_leads_consultation;
      CREATE INDEX idx_leads_list ON market_assessments(
        created_at DESC, id DESC, consultation, urgency, industry, company_size, contacted_at);
      -- The total without a date filter: leads per combination of the filtered answers (at most 2 x 2 x 5 x
      -- 10 x 5 rows), kept by triggers in the writer's transaction like term_counts, so a count is a sum
      -- over a few hundred rows instead of 25 ms of table scan. A row at 0 is removed.
      CREATE TABLE lead_counts (
        consultation INTEGER NOT NULL,
        contacted INTEGER NOT NULL,
        urgency TEXT NOT NULL,
        industry TEXT NOT NULL,
        company_size TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (consultation, contacted, urgency, industry, company_size)
      ) WITHOUT ROWID;
      INSERT INTO lead_counts (consultation, contacted, urgency, industry, company_size, n)
        SELECT consultation, contacted_at IS NOT NULL, urgency, industry, company_size, COUNT(*)
        FROM market_assessments GROUP BY 1, 2, 3, 4, 5;
      CREATE TRIGGER lead_counts_ins AFTER INSERT ON market_assessments BEGIN
        INSERT INTO lead_counts (consultation, contacted, urgency, industry, company_size, n)
          VALUES (NEW.consultation, NEW.contacted_at IS NOT NULL, NEW.urgency, NEW.industry, NEW.company_size, 1)
          ON CONFLICT (consultation, contacted, urgency, industry, company_size) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER lead_counts_del AFTER DELETE ON market_assessments BEGIN
        UPDATE lead_counts SET n = n - 1 WHERE consultation = OLD.consultation
          AND contacted = (OLD.contacted_at IS NOT NULL) AND urgency = OLD.urgency
          AND industry = OLD.industry AND company_size = OLD.company_size;
        DELETE FROM lead_counts WHERE n <= 0;
      END;
      CREATE TRIGGER lead_counts_upd
        AFTER UPDATE OF consultation, contacted_at, urgency, industry, company_size ON market_assessments
        WHEN OLD.consultation IS NOT NEW.consultation OR (OLD.contacted_at IS NULL) IS NOT (NEW.contacted_at IS NULL)
          OR OLD.urgency IS NOT NEW.urgency OR OLD.industry IS NOT NEW.industry
          OR OLD.company_size IS NOT NEW.company_size BEGIN
        UPDATE lead_counts SET n = n - 1 WHERE consultation = OLD.consultation
          AND contacted = (OLD.contacted_at IS NOT NULL) AND urgency = OLD.urgency
          AND industry = OLD.industry AND company_size = OLD.company_size;
        INSERT INTO lead_counts (consultation, contacted, urgency, industry, company_size, n)
          VALUES (NEW.consultation, NEW.contacted_at IS NOT NULL, NEW.urgency, NEW.industry, NEW.company_size, 1)
          ON CONFLICT (consultation, contacted, urgency, industry, company_size) DO UPDATE SET n = n + 1;
        DELETE FROM lead_counts WHERE n <= 0;
      END;
    `,
  },
  {
    version: 15,
    name: 'members search',
    sql: `
      -- /admin/members at 10,000 members (issue 34): a substring search of username, email, first and last
      -- name as LIKE '%q%' over every row costs ~7 ms on the event loop (measured), too slow for 20 admins at
      -- once. A trigram index answers any substring of 3+ characters, in any case, from the index. One text
      -- per member (the four values, space-separated), kept by triggers so every writer is covered.
      CREATE VIRTUAL TABLE users_search USING fts5(text, tokenize = 'trigram');
      INSERT INTO users_search (rowid, text)
        SELECT id, ${MEMBER_SEARCH_TEXT('')} FROM users;
      CREATE TRIGGER users_search_ins AFTER INSERT ON users BEGIN
        INSERT INTO users_search (rowid, text) VALUES (NEW.id, ${MEMBER_SEARCH_TEXT('NEW.')});
      END;
      CREATE TRIGGER users_search_upd AFTER UPDATE OF username, email, first_name, last_name ON users BEGIN
        UPDATE users_search SET text = ${MEMBER_SEARCH_TEXT('NEW.')} WHERE rowid = NEW.id;
      END;
      CREATE TRIGGER users_search_del AFTER DELETE ON users BEGIN
        DELETE FROM users_search WHERE rowid = OLD.id;
      END;
    `,
  },
  {
    version: 16,
    name: 'leads in the write mark',
    sql: `
      -- SQLite's write mark (data_version and total_changes) already covers every table; PostgreSQL's
      -- data_version counter gains market_assessments (lead_counts moves only with it; the leads' totals are memoised until
      -- the next write, issue 34).
      SELECT 1;
    `,
  },
  {
    version: 17,
    name: 'author name on posts',
    sql: `
      -- Issue 36: every card shows its author's name, and a list joined users for it row by row (~15 % of
      -- Explore's cost at 100,000 posts). Posts now carry it, kept by triggers wherever it can change: a post
      -- written (one UPDATE after the insert, with its card, as migration 9's trigger did), its author
      -- changed, or its author renamed. An author who is deleted leaves NULL (their posts' author_id goes
      -- NULL with ON DELETE SET NULL, and the DELETE trigger clears the name in the same statement).
      ALTER TABLE posts ADD COLUMN author_name TEXT;
      UPDATE posts SET author_name = (SELECT ${AUTHOR_NAME_OF('u')} FROM users u WHERE u.id = posts.author_id);
      DROP TRIGGER posts_card_ins;
      CREATE TRIGGER posts_card_ins AFTER INSERT ON posts BEGIN
        UPDATE posts SET card_json = ${STORED_CARD('NEW')},
          author_name = (SELECT ${AUTHOR_NAME_OF('u')} FROM users u WHERE u.id = NEW.author_id)
          WHERE id = NEW.id;
      END;
      CREATE TRIGGER posts_author_upd AFTER UPDATE OF author_id ON posts BEGIN
        UPDATE posts SET author_name = (SELECT ${AUTHOR_NAME_OF('u')} FROM users u WHERE u.id = NEW.author_id)
          WHERE id = NEW.id;
      END;
      CREATE TRIGGER users_name_posts AFTER UPDATE OF first_name, last_name, username ON users BEGIN
        UPDATE posts SET author_name = ${AUTHOR_NAME_OF('NEW')} WHERE author_id = NEW.id;
      END;
      CREATE TRIGGER users_gone_posts BEFORE DELETE ON users BEGIN
        UPDATE posts SET author_name = NULL WHERE author_id = OLD.id;
      END;
    `,
  },
  {
    version: 18,
    name: 'cards hold their author and counts',
    sql: `
      -- Issue 36: a list read the likes, the comment count and the author as four columns per card beside
      -- the card (~10 µs of Explore's ~80 µs statement at 100,000 posts, and as much again turning them
      -- into JavaScript values and text). They change only with a write (a
      -- like, a comment, a post's author changed or renamed), so the card now holds them, patched by the
      -- triggers that keep the columns, in the same UPDATE (one row write, as before). The columns stay the
      -- source the card is patched and rebuilt from (docs/decisions/0034-what-a-stored-card-holds.md).
      DROP TRIGGER posts_card_ins;
      CREATE TRIGGER posts_card_ins AFTER INSERT ON posts BEGIN
        UPDATE posts SET author_name = ${NAME_OF_AUTHOR}, card_json = ${CARD('NEW', NAME_OF_AUTHOR)}
          WHERE id = NEW.id;
      END;
      DROP TRIGGER posts_card_upd;
      CREATE TRIGGER posts_card_upd AFTER UPDATE OF slug, title, summary, excerpt, status, visibility,
        content_type, published_at, created_at, updated_at, tags_json, categories_json ON posts BEGIN
        UPDATE posts SET card_json = ${CARD('NEW', NAME_OF_AUTHOR)} WHERE id = NEW.id;
      END;
      DROP TRIGGER posts_author_upd;
      CREATE TRIGGER posts_author_upd AFTER UPDATE OF author_id ON posts BEGIN
        UPDATE posts SET author_name = ${NAME_OF_AUTHOR},
          card_json = json_set(card_json, '$.author', json_object('id', NEW.author_id, 'name', ${NAME_OF_AUTHOR}))
          WHERE id = NEW.id;
      END;
      DROP TRIGGER users_name_posts;
      CREATE TRIGGER users_name_posts AFTER UPDATE OF first_name, last_name, username ON users BEGIN
        UPDATE posts SET author_name = ${AUTHOR_NAME_OF('NEW')},
          card_json = json_set(card_json, '$.author.name', ${AUTHOR_NAME_OF('NEW')})
          WHERE author_id = NEW.id;
      END;
      -- The posts of a deleted author show no one (their author_id goes NULL by ON DELETE SET NULL).
      DROP TRIGGER users_gone_posts;
      CREATE TRIGGER users_gone_posts BEFORE DELETE ON users BEGIN
        UPDATE posts SET author_name = NULL,
          card_json = json_set(card_json, '$.author', json_object('id', NULL, 'name', NULL))
          WHERE author_id = OLD.id;
      END;
      DROP TRIGGER post_likes_ins;
      CREATE TRIGGER post_likes_ins AFTER INSERT ON post_likes BEGIN
        UPDATE posts SET like_count = like_count + 1, card_json = json_set(card_json, '$.likes', like_count + 1)
          WHERE id = NEW.post_id;
      END;
      DROP TRIGGER post_likes_del;
      CREATE TRIGGER post_likes_del AFTER DELETE ON post_likes BEGIN
        UPDATE posts SET like_count = like_count - 1, card_json = json_set(card_json, '$.likes', like_count - 1)
          WHERE id = OLD.post_id;
      END;
      DROP TRIGGER comments_ins;
      CREATE TRIGGER comments_ins AFTER INSERT ON comments BEGIN
        UPDATE posts SET comment_count = comment_count + 1,
          card_json = json_set(card_json, '$.comment_count', comment_count + 1)
          WHERE id = NEW.post_id;
      END;
      DROP TRIGGER comments_del;
      CREATE TRIGGER comments_del AFTER DELETE ON comments BEGIN
        UPDATE posts SET comment_count = comment_count - 1,
          card_json = json_set(card_json, '$.comment_count', comment_count - 1)
          WHERE id = OLD.post_id;
      END;
      UPDATE posts SET card_json = ${CARD('posts', 'posts.author_name')};
    `,
  },
  {
    version: 19,
    name: 'preview links stored per environment',
    sql: `
      -- Issue 44: a preview link is an opaque token (mfp_…) made for one environment; only its SHA-256 is
      -- stored. It can be revoked, and every edge checks links against the environment's list, which the
      -- deployment feed publishes. integrity is the entry digest recorded at release (the grant carries it).
      CREATE TABLE deploy_previews (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        environment TEXT NOT NULL,
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        integrity TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        revoked_at TEXT,
        revoked_by TEXT
      );
      -- The feed's and the list's question: an environment's links that expired less than a week ago.
      CREATE INDEX idx_deploy_previews_env ON deploy_previews(environment, expires_at);
      -- Pruning's question: is a version still named by a live link (in any environment)?
      CREATE INDEX idx_deploy_previews_release ON deploy_previews(remote, version);
      -- Bumped in the transaction of every link made or revoked: what the feed's long poll compares.
      CREATE TABLE deploy_preview_revisions (
        environment TEXT PRIMARY KEY,
        revision INTEGER NOT NULL
      );
    `,
  },
  {
    version: 20,
    name: 'health reports per environment, with the address',
    sql: `
      -- Issue 44 (docs/decisions/0027-health-gate.md): reports are read per environment (a staging page view
      -- says nothing about production), carry a pseudonym of the client's address group (the gate counts
      -- at most a few visitors per address) and may be server-render failures, recorded from the ticket.
      -- SQLite cannot change a CHECK: the table is rebuilt, its rows kept. Rows from before this migration
      -- are production's (the one environment an install had reports for) and have no address.
      CREATE TABLE rollout_health_signals_v20 (
        id INTEGER PRIMARY KEY,
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        track TEXT NOT NULL CHECK (track IN ('stable', 'canary', 'preview')),
        kind TEXT NOT NULL CHECK (kind IN ('load', 'load-failure', 'render-error', 'runtime-error',
          'server-render-failure', 'lcp', 'inp', 'cls')),
        value REAL,
        visitor TEXT NOT NULL,
        ticket TEXT NOT NULL,
        at INTEGER NOT NULL,
        environment TEXT NOT NULL,
        address TEXT
      );
      INSERT INTO rollout_health_signals_v20
        (id, remote, version, track, kind, value, visitor, ticket, at, environment, address)
        SELECT id, remote, version, track, kind, value, visitor, ticket, at, 'production', NULL
        FROM rollout_health_signals;
      DROP TABLE rollout_health_signals;
      ALTER TABLE rollout_health_signals_v20 RENAME TO rollout_health_signals;
      CREATE UNIQUE INDEX idx_rollout_signals_once ON rollout_health_signals(ticket, remote, version, kind);
      -- The gate's and the admin view's reads: one environment's remote and version over a window.
      CREATE INDEX idx_rollout_signals_env_version_at ON rollout_health_signals(environment, remote, version, at);
      CREATE INDEX idx_rollout_signals_at ON rollout_health_signals(at);
    `,
  },
  {
    version: 21,
    name: 'outbox secrets sealed, older reset links voided',
    sql: `
      -- Issue 46 (docs/decisions/0039-account-secrets.md): a mail's one-time secret (a reset link's token) is
      -- no longer written into its stored bodies, which keep a slot for it; it is kept sealed (SecretBox,
      -- under the account key outside the database) until the mail is sent or finally fails, then cleared.
      ALTER TABLE outbox ADD COLUMN sealed_secret TEXT;
      -- Before this migration the bodies held the token itself: every link not yet used stops working.
      UPDATE password_resets SET used_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
        WHERE used_at IS NULL;
      -- And the tokens are cut out of the stored bodies (each body holds its link once: 43 characters after
      -- "reset-password?token="). A reset mail still waiting would now carry a dead link: it is given up.
      UPDATE outbox SET
        text_body = substr(text_body, 1, instr(text_body, 'reset-password?token=') + 20) || '[link hidden]'
          || substr(text_body, instr(text_body, 'reset-password?token=') + 64)
        WHERE kind = 'password-reset' AND instr(text_body, 'reset-password?token=') > 0;
      UPDATE outbox SET
        html_body = substr(html_body, 1, instr(html_body, 'reset-password?token=') + 20) || '[link hidden]'
          || substr(html_body, instr(html_body, 'reset-password?token=') + 64)
        WHERE kind = 'password-reset' AND instr(html_body, 'reset-password?token=') > 0;
      UPDATE outbox SET status = 'failed', claimed_until = NULL,
          last_error = 'Not sent: its link was voided when reset links moved out of stored mail (migration 21)'
        WHERE kind = 'password-reset' AND status IN ('pending', 'sending');
      -- The assessment mail's cap per address (issue 46) counts an address's mails of one kind in a window.
      CREATE INDEX idx_outbox_recipient ON outbox(lower(to_address), kind, created_at);
    `,
  },
  {
    version: 22,
    name: 'sessions: idle expiry, device, public id',
    sql: `
      -- Issue 46: a session unused for SESSION_IDLE_MS ends (last_seen_at, written at most once a minute);
      -- the profile lists sessions by an opaque public id (never the token's hash) with their device.
      ALTER TABLE sessions ADD COLUMN last_seen_at INTEGER NOT NULL DEFAULT 0;
      UPDATE sessions SET last_seen_at = created_at;
      ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
      ALTER TABLE sessions ADD COLUMN public_id TEXT;
      UPDATE sessions SET public_id = lower(hex(randomblob(12)));
      CREATE UNIQUE INDEX idx_sessions_public_id ON sessions(public_id);
    `,
  },
  {
    version: 23,
    name: 'email changes wait for their confirmation',
    sql: `
      -- Issue 46: a new email takes effect when the link mailed to it is followed; the old address gets an
      -- undo link. Only the tokens' SHA-256 are stored.
      CREATE TABLE email_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        old_email TEXT NOT NULL,
        new_email TEXT NOT NULL,
        confirm_hash TEXT NOT NULL UNIQUE,
        undo_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        undo_expires_at INTEGER NOT NULL,
        confirmed_at INTEGER,
        ended_at INTEGER
      );
      CREATE INDEX idx_email_changes_user ON email_changes(user_id);
    `,
  },
  {
    version: 24,
    name: 'second factor, login devices, lockout per account and address',
    sql: `
      -- Issue 46: an account's authenticator (TOTP). Its secret is sealed (src/secret-box.ts): a copy of the
      -- database yields no working code. A setup waits in pending_sealed until a code confirms it, and an
      -- authenticator being replaced keeps working until then. last_step is the last 30-second step a code
      -- was accepted for: a code is refused at or before it, so one code is never accepted twice.
      CREATE TABLE user_totp (
        user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        secret_sealed TEXT,
        enabled_at INTEGER,
        last_step INTEGER NOT NULL DEFAULT 0,
        pending_sealed TEXT,
        pending_at INTEGER
      );
      -- Ten one-time recovery codes per account, as SHA-256 hashes (each is 120 random bits).
      CREATE TABLE user_recovery_codes (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        used_at INTEGER,
        PRIMARY KEY (user_id, code_hash)
      ) WITHOUT ROWID;
      -- Browsers that have logged in to an account (the SHA-256 of their device token): an account's lock
      -- does not apply to them, so a stranger failing on purpose cannot lock the owner out.
      CREATE TABLE login_devices (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        device_hash TEXT NOT NULL,
        last_login_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, device_hash)
      ) WITHOUT ROWID;
      -- When this session last verified a code (POST /api/account/two-factor/verify): the step-up check.
      ALTER TABLE sessions ADD COLUMN second_factor_at INTEGER NOT NULL DEFAULT 0;
      -- The lockout's keys were the identifier typed; they are now an account, an address or a device.
      DELETE FROM login_throttle;
    `,
  },
  {
    version: 25,
    name: 'dev override links',
    sql: `
      -- Issue 47 (docs/decisions/0042-dev-overrides.md): links that make one browser load a remote from a
      -- team's dev server. Stored as preview links are (0037): the token's SHA-256, per environment, with an
      -- expiry and a revocation; made and revoked links bump deploy_preview_revisions, so the feed's long
      -- poll wakes every edge for them too.
      CREATE TABLE deploy_overrides (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        environment TEXT NOT NULL,
        remote TEXT NOT NULL,
        url TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        revoked_at TEXT,
        revoked_by TEXT
      );
      CREATE INDEX idx_deploy_overrides_env ON deploy_overrides(environment, expires_at);
    `,
  },
  {
    version: 26,
    name: 'dev override links: their use',
    sql: `
      -- Issue 47: how much a dev override link was used, as edges report it (services/deploy-override-uses.ts):
      -- browsers that opened it, pages served under it, and when it was last used. The opens and Exit
      -- themselves are rows of deploy_audit (override-open, override-exit; at most one per link and address a
      -- minute), which count from here.
      ALTER TABLE deploy_overrides ADD COLUMN opens INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE deploy_overrides ADD COLUMN page_views INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE deploy_overrides ADD COLUMN last_used_at TEXT;
    `,
  },
  {
    version: 27,
    name: 'server render figures',
    sql: `
      -- Issue 48 (docs/decisions/0043-server-signals-in-the-gate.md): the edges' first-screen renders per
      -- environment, remote, version, track and minute, summed over the edges' batches. Small by design: a
      -- row a minute per live version that renders. Pruned after 30 days like the health reports.
      CREATE TABLE rollout_render_figures (
        environment TEXT NOT NULL,
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        track TEXT NOT NULL,
        minute INTEGER NOT NULL,
        renders INTEGER NOT NULL,
        failures INTEGER NOT NULL,
        slow INTEGER NOT NULL,
        duration_ms REAL NOT NULL,
        PRIMARY KEY (environment, remote, version, track, minute)
      ) WITHOUT ROWID;
      CREATE INDEX idx_rollout_render_figures_minute ON rollout_render_figures(minute);
      -- Each batch's id once: a signed batch sent again (within the minutes its signature is fresh) is refused.
      CREATE TABLE rollout_render_batches (
        id TEXT PRIMARY KEY,
        at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 28,
    name: 'PostgreSQL native types',
    // Issue 49 (docs/decisions/0046-postgresql-native-types.md): PostgreSQL's booleans, times and JSON
    // documents take its own types (migrations-postgres-native.ts). SQLite's columns already hold what the
    // API reads. What changes here is the spelling: statements now say is_active = FALSE (an integer 0 is
    // no boolean on PostgreSQL), and SQLite uses a partial index only for a query whose WHERE has the
    // index's own term, FALSE and 0 being different terms to its planner.
    sql: `
      DROP INDEX idx_users_pending_from;
      CREATE INDEX idx_users_pending_from ON users(registered_from) WHERE is_active = FALSE;
    `,
  },
];

export const MIGRATIONS: Migration[] = SQLITE_MIGRATIONS.map((m) => ({
  ...m,
  postgres: POSTGRES_MIGRATIONS[m.version],
})).map(compiled);

/**
 * A migration with its changes compiled into each engine's text (what migrate() runs), ahead of the SQL it
 * writes per engine. A test's own migrations go through here too.
 */
export function compiled(m: Migration): Migration {
  const { changes } = m;
  if (!changes) return m;
  if (m.sql.trim() !== '' && m.postgres === undefined)
    throw new Error(`migration ${m.version} (${m.name}) has SQLite's own SQL and not PostgreSQL's`);
  const text = (dialect: 'sqlite' | 'postgres', own = '') =>
    [compileChanges(dialect, changes), own].filter((part) => part.trim() !== '').join('\n');
  return { ...m, sql: text('sqlite', m.sql), postgres: text('postgres', m.postgres) };
}
