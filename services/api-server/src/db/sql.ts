import type Database from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import { conflictBackoffMs, isWriteConflict, WRITE_ATTEMPTS } from './write-conflicts';

export type Dialect = 'sqlite' | 'postgres';

/** Parameters of a statement: named (`@name` in the text) or positional (`?`). */
export type Params = Record<string, unknown> | readonly unknown[];

/** A prepared SQLite statement as Kysely's driver calls it, values as one array (db/database.ts). */
export interface DriverStatement {
  readonly reader: boolean;
  all(values: readonly unknown[]): unknown[];
  run(values: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(values: readonly unknown[]): IterableIterator<unknown>;
}

/** SQLite's prepared statements by text (the same cache Kysely's driver is given). */
export interface StatementCache {
  prepare(text: string): DriverStatement;
  /** The same statement answering each row as an array of its columns (better-sqlite3's raw mode). */
  prepareRaw?(text: string): DriverStatement;
}

/** What the `Sql` of a database and those of its transactions share. */
interface Shared {
  /** SQL texts with named parameters, in the dialect's positional form (PostgreSQL), once each. */
  compiled: Map<string, { text: string; names: string[] | null }>;
  /** Transactions begun and not yet ended (SQLite: while any is, statements queue behind it). */
  openTransactions: number;
}

/**
 * The API's one way to the database, whichever it is (issue 12, docs/decisions/0024-postgresql.md).
 * Kysely brings the dialects, the drivers (better-sqlite3, pg's pool), connections and transactions; the
 * statements stay SQL texts, written once with named parameters, because their plans were tuned for issue 17
 * and a builder would only spell the same text in another way. Where the two databases differ, the text
 * comes from `db/dialect.ts`.
 *
 * `transaction(work)` hands `work` an `Sql` bound to the transaction's connection: every statement of the
 * transaction goes through that one (a helper called in the middle of a write takes it as a parameter). On
 * SQLite's single connection, a statement sent through the unbound `Sql` meanwhile waits for the commit;
 * so, inside `work`, never use anything but the `Sql` it was given. (No AsyncLocalStorage to find the
 * transaction implicitly: on Node 20 it makes every await in the process about four times dearer.)
 */
export class Sql {
  constructor(
    readonly dialect: Dialect,
    private readonly kysely: Kysely<unknown>,
    /** SQLite's own connection, for what only it has (pragmas, the online backup); null on PostgreSQL. */
    readonly sqlite: Database.Database | null = null,
    /** SQLite: its prepared statements, run directly when no transaction is open (see `execute`). */
    private readonly statements: StatementCache | null = null,
    private readonly shared: Shared = { compiled: new Map(), openTransactions: 0 },
    /** True for the `Sql` of one transaction's connection. */
    private readonly bound = false,
  ) {}

  /** This database's `Sql` on one connection (a transaction's). */
  private on(conn: Kysely<unknown>): Sql {
    return new Sql(this.dialect, conn, this.sqlite, this.statements, this.shared, true);
  }

  /** Every row of a query. */
  async all<T>(text: string, params: Params = []): Promise<T[]> {
    const result = await this.execute(text, params);
    return result.rows as T[];
  }

  /**
   * Every row as an array of its columns, in the statement's order. Cheaper than `all` on SQLite for a
   * page of rows: better-sqlite3 makes no object per row (~0.5 µs a row with ten columns, issue 36).
   */
  async rows(text: string, params: Params = []): Promise<unknown[][]> {
    if (this.statements?.prepareRaw && (this.bound || this.shared.openTransactions === 0)) {
      return this.statements.prepareRaw(text).all(sqliteValues(params)) as unknown[][];
    }
    return (await this.all<Record<string, unknown>>(text, params)).map((row) => Object.values(row));
  }

  /** The first row, or undefined. */
  async get<T>(text: string, params: Params = []): Promise<T | undefined> {
    return (await this.all<T>(text, params))[0];
  }

  /** The first column of the first row (a count, an id), or undefined when there is no row. */
  async value<T>(text: string, params: Params = []): Promise<T | undefined> {
    const row = await this.get<Record<string, unknown>>(text, params);
    return row === undefined ? undefined : firstColumn<T>(row);
  }

  /** The first column of every row. */
  async column<T>(text: string, params: Params = []): Promise<T[]> {
    return (await this.all<Record<string, unknown>>(text, params)).map((row) => firstColumn<T>(row));
  }

  /** A write: how many rows it changed. */
  async run(text: string, params: Params = []): Promise<number> {
    const result = await this.execute(text, params);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * A script of several statements without parameters (migrations). SQLite runs it with `exec` on the
   * connection the transaction holds; PostgreSQL takes it as one simple query.
   */
  async script(text: string): Promise<void> {
    if (this.sqlite) {
      // SQLite has one connection: inside a transaction this is that connection (migrations run in one),
      // and the call is synchronous, so nothing else can run in between.
      this.sqlite.exec(text);
      return;
    }
    await this.kysely.executeQuery(CompiledQuery.raw(text, []));
  }

  /**
   * `work` in one write transaction, committed when it resolves and rolled back when it throws. SQLite's
   * writers take turns: BEGIN IMMEDIATE takes its write lock up front (a deferred transaction that reads
   * first cannot wait to upgrade its lock when another process writes, 0016). PostgreSQL's run in parallel
   * at READ COMMITTED, with no lock shared by every write (issue 49): each read-then-write is protected by
   * what it touches (a unique constraint, `n = n + 1`, `WHERE revision = @expected`, a row or key lock from
   * `lock()`), and a transaction that loses a race (db/write-conflicts.ts) runs again from the start, so
   * `work` may run more than once: it must do nothing but database work (and never await anything else:
   * on SQLite every other query waits for it). A transaction asked of a transaction's `Sql` joins it.
   */
  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.bound) return work(this);
    this.shared.openTransactions += 1;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.kysely.connection().execute((conn) => this.within(conn, work));
        } catch (error) {
          if (this.dialect !== 'postgres' || attempt >= WRITE_ATTEMPTS || !isWriteConflict(error))
            throw error;
          await new Promise((resolve) => setTimeout(resolve, conflictBackoffMs(attempt + 1)));
        }
      }
    } finally {
      this.shared.openTransactions -= 1;
    }
  }

  /**
   * Inside a transaction: waits until no other transaction holds `key`, and holds it until this one ends. For
   * a read-then-write that no constraint or row guards (a count of recent rows, a record read and written
   * whole): writers of other keys go on in parallel. PostgreSQL: a transaction-scoped advisory lock on the
   * key's hash. SQLite: nothing to do, its writers take turns already.
   */
  async lock(...key: (string | number)[]): Promise<void> {
    if (!this.bound) throw new Error('lock() is for a transaction');
    if (this.dialect !== 'postgres') return;
    await this.value('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key.join(':')]);
  }

  /** BEGIN, `work` on this connection, COMMIT (or ROLLBACK when it throws). */
  private async within<T>(conn: Kysely<unknown>, work: (tx: Sql) => Promise<T>): Promise<T> {
    await conn.executeQuery(CompiledQuery.raw(this.dialect === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN', []));
    try {
      const result = await work(this.on(conn));
      await conn.executeQuery(CompiledQuery.raw('COMMIT', []));
      return result;
    } catch (error) {
      await conn.executeQuery(CompiledQuery.raw('ROLLBACK', [])).catch(() => {});
      throw error;
    }
  }

  /**
   * PostgreSQL only: `work` inside one REPEATABLE READ transaction whose snapshot is exported, so another
   * session (pg_dump --snapshot) reads exactly what the queries of `work` read.
   */
  async snapshot<T>(work: (snapshotId: string, tx: Sql) => Promise<T>): Promise<T> {
    if (this.dialect !== 'postgres') throw new Error('snapshot() is for PostgreSQL');
    return this.kysely.connection().execute(async (conn) => {
      await conn.executeQuery(CompiledQuery.raw('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', []));
      try {
        const exported = await conn.executeQuery<{ id: string }>(
          CompiledQuery.raw('SELECT pg_export_snapshot() AS id', []),
        );
        return await work(exported.rows[0]!.id, this.on(conn));
      } finally {
        await conn.executeQuery(CompiledQuery.raw('COMMIT', [])).catch(() => {});
      }
    });
  }

  async close(): Promise<void> {
    if (this.bound) throw new Error("a transaction's Sql is closed with its transaction");
    await this.kysely.destroy();
  }

  private execute(text: string, params: Params): Promise<{ rows: unknown[]; numAffectedRows?: bigint }> {
    const conn = this.kysely;
    if (this.dialect === 'sqlite') {
      const values = sqliteValues(params);
      // Inside a transaction (its own statements), or while none is open, a statement runs straight on
      // its prepared statement: better-sqlite3 is synchronous, so nothing can come between, and Kysely's
      // path (its connection lock and promises, ~5 µs a statement) would buy nothing. While a transaction
      // is open, everyone else's statements queue behind it on Kysely's connection lock.
      if (this.statements && (this.bound || this.shared.openTransactions === 0)) {
        return Promise.resolve(runStatement(this.statements.prepare(text), values));
      }
      return conn.executeQuery(CompiledQuery.raw(text, values));
    }
    const { text: sql, names } = this.positional(text);
    const values = names
      ? names.map((name) => bindable((params as Record<string, unknown>)[name]))
      : (params as readonly unknown[]).map(bindable);
    return conn.executeQuery(CompiledQuery.raw(sql, values));
  }

  /**
   * For PostgreSQL: `@name` placeholders (outside quoted strings) become `$1…`, a name used twice getting one
   * number, and `?` placeholders are numbered in order. Cached per text: the texts are our own constants
   * and shapes, never built from input.
   */
  private positional(text: string): { text: string; names: string[] | null } {
    let hit = this.shared.compiled.get(text);
    if (hit) return hit;
    const names: string[] = [];
    let out = '';
    let positional = 0;
    let quote: string | null = null;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (quote) {
        out += ch;
        if (ch === quote) quote = null;
        continue;
      }
      if (ch === "'" || ch === '"') {
        quote = ch;
        out += ch;
        continue;
      }
      const named = ch === '@' ? /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i)) : null;
      if (named) {
        let index = names.indexOf(named[1]!);
        if (index < 0) index = names.push(named[1]!) - 1;
        out += `$${index + 1}`;
        i += named[0].length - 1;
      } else if (ch === '?') {
        positional += 1;
        out += `$${positional}`;
      } else {
        out += ch;
      }
    }
    hit = { text: out, names: names.length > 0 ? names : null };
    this.shared.compiled.set(text, hit);
    return hit;
  }
}

/** better-sqlite3 binds `@name` itself from one object among the values. */
function sqliteValues(params: Params): unknown[] {
  return Array.isArray(params)
    ? params.map(bindable)
    : [Object.fromEntries(Object.entries(params).map(([k, v]) => [k, bindable(v)]))];
}

function firstColumn<T>(row: Record<string, unknown>): T {
  for (const key in row) return row[key] as T;
  return undefined as T;
}

function runStatement(stmt: DriverStatement, values: readonly unknown[]) {
  if (stmt.reader) return { rows: stmt.all(values) };
  return { rows: [], numAffectedRows: BigInt(stmt.run(values).changes) };
}

/**
 * What a driver can bind: undefined is NULL, booleans are 0/1 (SQLite's flags are integers; PostgreSQL's boolean
 * columns take '1' and '0' as input, migration 28).
 */
function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
