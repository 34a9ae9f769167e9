import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../src/db/database';
import type { Sql } from '../src/db/sql';
import { tempDatabase } from './helpers';

/** The query layer itself (src/db/sql.ts), on whichever database the suite runs. */
let sql: Sql;
beforeAll(async () => {
  sql = openDatabase(tempDatabase());
  await migrate(sql);
});
afterAll(() => sql.close());

const keys = () => sql.column<string>("SELECT key FROM site_records WHERE key LIKE 't:%' ORDER BY key");

describe('Sql', () => {
  it('binds named parameters (one name used twice) and positional ones, and quoted @ and ? stay text', async () => {
    expect(await sql.get("SELECT @a AS a, @b AS b, @a || '@a?' AS c", { a: 'x', b: 'y' })).toEqual({
      a: 'x',
      b: 'y',
      c: 'x@a?',
    });
    expect(await sql.value('SELECT CAST(? AS INTEGER) + CAST(? AS INTEGER)', [2, 3])).toBe(5);
    expect(await sql.column("SELECT key FROM site_records WHERE key = 'none'")).toEqual([]);
  });

  it('commits a transaction, and rolls back everything of one that throws', async () => {
    await sql.transaction(async (tx) => {
      await tx.run("INSERT INTO site_records (key, value) VALUES ('t:kept', '1')");
      // A transaction asked of a transaction's Sql joins it.
      await tx.transaction((inner) =>
        inner.run("INSERT INTO site_records (key, value) VALUES ('t:inner', '1')"),
      );
    });
    await expect(
      sql.transaction(async (tx) => {
        await tx.run("INSERT INTO site_records (key, value) VALUES ('t:lost', '1')");
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await keys()).toEqual(['t:inner', 't:kept']);
  });

  it("a statement sent meanwhile is not part of an open transaction: it outlives that transaction's rollback", async () => {
    let reached!: () => void;
    const inside = new Promise<void>((resolve) => {
      reached = resolve;
    });
    // The transaction stays open until the outside statement has been sent, however long that takes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const failing = sql.transaction(async (tx) => {
      await tx.run("INSERT INTO site_records (key, value) VALUES ('t:rolled-back', '1')");
      reached();
      await held;
      throw new Error('refused');
    });
    await inside;
    const outside = sql.run("INSERT INTO site_records (key, value) VALUES ('t:outside', '1')");
    release();
    await expect(failing).rejects.toThrow('refused');
    expect(await outside).toBe(1);
    expect(await keys()).toEqual(['t:inner', 't:kept', 't:outside']);
  });
});
