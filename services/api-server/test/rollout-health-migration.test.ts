import { verifyTicket } from '@app/rollout/node';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../src/db/database';
import { MIGRATIONS } from '../src/db/migrations';
import type { Sql } from '../src/db/sql';
import { RolloutHealthService } from '../src/services/rollout-health';
import { event, KEY, ticketFor } from './health-tickets';
import { tempDatabase } from './helpers';
import { V1, V2 } from './rollout-fixtures';

// Migration 20 (issue 44), on SQLite (a rebuilt table) and PostgreSQL (added columns): reports stored before
// it are production's, without an address, and read as before; the new kind and columns work after it.
let open: Sql[] = [];
afterEach(async () => {
  for (const sql of open) await sql.close();
  open = [];
});

const OLD_ROW = `INSERT INTO rollout_health_signals (remote, version, track, kind, value, visitor, ticket, at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

async function databaseBefore20(): Promise<Sql> {
  const sql = openDatabase(tempDatabase());
  open.push(sql);
  await migrate(
    sql,
    MIGRATIONS.filter((m) => m.version < 20),
  );
  return sql;
}

describe('migration 20: health reports per environment, with the address', () => {
  it('keeps the old reports, as production’s without an address, and reads them as before', async () => {
    const sql = await databaseBefore20();
    const at = Date.now() - 60_000;
    // Two visitors of V1 (one failed), one of V2, and a report of the same page view twice is impossible.
    for (const row of [
      ['mf-research', V1, 'stable', 'load', 300, 'visitor-a', 'ticket-a', at],
      ['mf-research', V1, 'stable', 'runtime-error', null, 'visitor-a', 'ticket-a', at],
      ['mf-research', V1, 'stable', 'load', 280, 'visitor-b', 'ticket-b', at],
      ['mf-research', V1, 'stable', 'lcp', 1500, 'visitor-b', 'ticket-b', at],
      ['mf-research', V2, 'canary', 'load', 310, 'visitor-c', 'ticket-c', at],
    ]) {
      await sql.run(OLD_ROW, row);
    }
    // Up to 20 only: later migrations (23 onwards) are not this test's.
    expect(
      await migrate(
        sql,
        MIGRATIONS.filter((m) => m.version <= 20),
      ),
    ).toEqual([20]);

    const rows = await sql.all<{ environment: string; address: string | null }>(
      'SELECT environment, address FROM rollout_health_signals ORDER BY id',
    );
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.environment === 'production' && r.address === null)).toBe(true);

    const health = new RolloutHealthService(sql);
    const v1 = await health.sample('production', 'mf-research', V1);
    expect(v1).toMatchObject({ addresses: 1, overCap: 0 });
    expect(v1.visitors).toHaveLength(2);
    expect(v1.visitors).toContainEqual({ views: 1, errorViews: 1, lcp: null, inp: null, cls: null });
    expect(v1.visitors).toContainEqual({ views: 1, errorViews: 0, lcp: 1500, inp: null, cls: null });
    expect(await health.visitors('staging', 'mf-research', V1)).toEqual([]);
    expect(await health.remoteRows('production', 'mf-research', 0)).toHaveLength(5);

    // The unique index survived: the old page view's kinds are still counted once.
    const old = await sql.run(
      `INSERT INTO rollout_health_signals (environment, remote, version, track, kind, value, visitor, ticket, at)
       VALUES ('production', 'mf-research', ?, 'stable', 'load', 1, 'visitor-a', 'ticket-a', ?) ON CONFLICT DO NOTHING`,
      [V1, at],
    );
    expect(old).toBe(0);
  });

  it('takes new reports with their environment, address and server-render failures after it', async () => {
    const sql = await databaseBefore20();
    await migrate(sql);
    const health = new RolloutHealthService(sql);
    const verdict = verifyTicket(
      ticketFor({ environment: 'staging', canary: true, renderFailures: ['mf-research'] }),
      KEY,
    );
    if (!verdict.ok) throw new Error(verdict.reason);
    await health.record(verdict.ticket, [event({ version: V2 })]);
    const rows = await sql.all<{ kind: string; environment: string; address: string }>(
      'SELECT kind, environment, address FROM rollout_health_signals ORDER BY kind',
    );
    expect(rows).toEqual([
      { kind: 'load', environment: 'staging', address: verdict.ticket.address },
      { kind: 'server-render-failure', environment: 'staging', address: verdict.ticket.address },
    ]);
    // A row without an environment is refused by the schema itself.
    await expect(
      sql.run(
        `INSERT INTO rollout_health_signals (remote, version, track, kind, visitor, ticket, at)
         VALUES ('mf-research', ?, 'stable', 'load', 'v', 't', 1)`,
        [V1],
      ),
    ).rejects.toThrow();
  });
});
