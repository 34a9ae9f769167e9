import fs from 'node:fs';
import path from 'node:path';
import { describeDeployment, parseManifest, type RemotePackage } from '@app/rollout';
import type { Sql } from '../db/sql';
import { recordDeployAudit } from './deploy-audit';

/**
 * Upgrading an install whose deployments lived in files (before issue 33): an environment of
 * DEPLOY_ENVIRONMENTS that has no row yet but a `<DEPLOY_DIR>/<env>.json` starts from that file, so its
 * edges keep serving what they served. Once per environment (the row exists afterwards), audited as a
 * bootstrap; every instance starting at once may try, one INSERT wins. A file that does not parse is left
 * alone (said on stderr): the environment then starts empty, as a new one would.
 */
export async function importDeploymentFiles(
  sql: Sql,
  deployDir: string,
  environments: readonly string[],
  now: () => number = Date.now,
): Promise<string[]> {
  const imported: string[] = [];
  for (const environment of environments) {
    const file = path.join(deployDir, `${environment}.json`);
    if (!fs.existsSync(file)) continue;
    const exists = await sql.value('SELECT 1 FROM deployments WHERE environment = @environment', {
      environment,
    });
    if (exists !== undefined) continue;
    let manifest: ReturnType<typeof parseManifest>;
    try {
      manifest = parseManifest(JSON.parse(fs.readFileSync(file, 'utf8')));
    } catch (error) {
      process.stderr.write(`deployment file ${file} not imported: ${(error as Error).message}\n`);
      continue;
    }
    const revision = Math.max(1, manifest.revision);
    const at = new Date(now()).toISOString();
    const done = await sql.transaction(async (tx) => {
      const stored = await tx.run(
        `INSERT INTO deployments (environment, revision, manifest_json, updated_at)
         VALUES (@environment, @revision, @text, @at) ON CONFLICT (environment) DO NOTHING`,
        { environment, revision, text: JSON.stringify({ ...manifest, environment, revision }), at },
      );
      if (stored === 0) return false;
      const remotes = Object.keys(manifest.remotes) as RemotePackage[];
      await recordDeployAudit(
        tx,
        remotes.map((remote) => ({
          at,
          actor: 'api-server',
          environment,
          action: 'bootstrap' as const,
          remote,
          from: null,
          to: describeDeployment(manifest.remotes[remote]),
          reason: `imported from ${file}`,
        })),
        null,
      );
      return true;
    });
    if (done) imported.push(environment);
  }
  return imported;
}
