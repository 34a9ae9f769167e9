// What the product holds, for `pnpm bench:rollout`'s attacker check (scripts/bench-rollout.mjs): the rows of
// health reports and of counted refusals, read from the SQLite file the started API writes (read-only, with
// the API's own better-sqlite3), and per version what the gate itself reads: visitors and page views from
// the deploy API's health route, as `pnpm rollout watch` gets them (with the local install's token).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from '../../apps.mjs';

/** Resolved from the package that depends on it (the workspace root does not). */
const fromApi = createRequire(path.join(ROOT, 'services', 'api-server', 'package.json'));

/**
 * `snapshot(remote, versions)` returns { rows, refusals, versions: { [version]: { visitors, views } } }.
 * `apiUrl`: the started API; `deployDir`: where it wrote its local deploy token.
 */
export async function openStore({ dbPath, apiUrl, deployDir, environment = 'production' }) {
  const Database = fromApi('better-sqlite3');
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const token = fs.readFileSync(path.join(deployDir, 'local-deploy-token'), 'utf8').trim();
  const count = (sql) => Number(db.prepare(sql).get().n);
  const visitors = async (remote, version) => {
    const url = `${apiUrl}/api/deploy/environments/${environment}/remotes/${remote}/health?version=${version}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    return (await response.json()).visitors;
  };
  return {
    async snapshot(remote, versions) {
      const byVersion = {};
      for (const version of versions) {
        const figures = await visitors(remote, version);
        byVersion[version] = { visitors: figures.length, views: figures.reduce((s, v) => s + v.views, 0) };
      }
      return {
        rows: count('SELECT COUNT(*) AS n FROM rollout_health_signals'),
        refusals: count('SELECT COALESCE(SUM(count), 0) AS n FROM rollout_health_refusals'),
        versions: byVersion,
      };
    },
    async close() {
      db.close();
    },
  };
}
