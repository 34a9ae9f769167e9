// What the product's database holds, read directly (not through the API), for `pnpm bench:rollout`'s
// attacker check (scripts/bench-rollout.mjs): the rows of health reports and of counted refusals (SQL on the
// SQLite file with the API's own better-sqlite3, read-only), and per version what the gate itself reads:
// visitors and page views through openRolloutHealthStore (packages/api-server/src/rollout-health-store.ts),
// the figures the deploy API's health route serves `pnpm rollout watch`. Runs under tsx (TypeScript).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../apps.mjs';

/** Resolved from the packages that depend on them (the workspace root does not). */
const fromApi = createRequire(path.join(ROOT, 'packages', 'api-server', 'package.json'));

/**
 * Opens the SQLite file the started product's API writes. `snapshot(versions)` returns
 * { rows, refusals, versions: { [version]: { visitors, views } } }.
 */
export async function openStore(dbPath) {
  const Database = fromApi('better-sqlite3');
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const { openRolloutHealthStore } = await import(
    pathToFileURL(path.join(ROOT, 'packages', 'api-server', 'src', 'rollout-health-store.ts')).href
  );
  const health = await openRolloutHealthStore(dbPath);
  const count = (sql) => Number(db.prepare(sql).get().n);
  return {
    async snapshot(remote, versions) {
      const byVersion = {};
      for (const version of versions) {
        const visitors = await health.visitors(remote, version);
        byVersion[version] = { visitors: visitors.length, views: visitors.reduce((s, v) => s + v.views, 0) };
      }
      return {
        rows: count('SELECT COUNT(*) AS n FROM rollout_health_signals'),
        refusals: count('SELECT COALESCE(SUM(count), 0) AS n FROM rollout_health_refusals'),
        versions: byVersion,
      };
    },
    async close() {
      db.close();
      await health.close();
    },
  };
}
