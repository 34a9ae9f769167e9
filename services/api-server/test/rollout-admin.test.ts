import os from 'node:os';
import path from 'node:path';
import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { AdminRolloutsSchema } from '@app/contracts/rollouts-admin';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, DEFAULT_CONFIG } from '../src/config';
import { recordDeployAudit } from '../src/services/deploy-audit';
import { event, ticketFor } from './health-tickets';
import { startTestServer, type TestServer, type TestUser, tempRollout } from './helpers';
import { auditEntry, release, V1, V2, writeManifest } from './rollout-fixtures';

/** Since issue 33 the admin view reads the deployment and its audit log from the database. */
async function storeManifest(text: string, revision = 3) {
  await s.sql.run('DELETE FROM deployments');
  await s.sql.run(
    `INSERT INTO deployments (environment, revision, manifest_json, updated_at) VALUES ('production', @revision, @text, NULL)`,
    { revision, text },
  );
}
const appendAudit = (entries: ReturnType<typeof auditEntry>[]) =>
  recordDeployAudit(
    s.sql,
    entries.map((e) => ({ ...e, environment: 'production' })) as Parameters<typeof recordDeployAudit>[1],
    null,
  );

const VIEW = ADMIN_PATHS.rollouts;

let s: TestServer;
let rollout: Config['rollout'];
let admin: TestUser;
let member: TestUser;
beforeAll(async () => {
  rollout = tempRollout();
  release(rollout.paths, 'mf-research', V1);
  release(rollout.paths, 'mf-research', V2);
  // No shell build (not the repository's shell/dist, which may or may not be built): an unreadable shell.
  const shellManifest = path.join(os.tmpdir(), `no-shell-${process.pid}`, 'mf-manifest.json');
  s = await startTestServer({ rollout, deploy: { ...DEFAULT_CONFIG.deploy, shellManifest } });
  admin = await s.user(['admin'], 'admin');
  member = await s.user([], 'member');
});
afterAll(() => s.close());

describe('GET /api/admin/rollouts', () => {
  it('is for administrators only', async () => {
    const anonymous = await s.get(VIEW);
    expect(anonymous.status).toBe(401);
    expect(typeof anonymous.body.error).toBe('string');
    const forbidden = await s.get(VIEW, member.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: 'Administrator role required' });
  });

  it('answers an empty environment: no manifest, no health, no audit, no preview links', async () => {
    const r = await s.get(VIEW, admin.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      environment: 'production',
      manifest: null,
      health: [],
      charts: [],
      refusals: [],
      audit: [],
      previews: [],
      compatibility: {
        environment: 'production',
        shell: { manifest: s.ctx.config.deploy.shellManifest, federationRuntime: null },
        rows: [],
      },
      gates: [],
    });
  });

  it('shows the manifest, the health summary and the audit log, newest first', async () => {
    const manifest = { ...writeManifest(rollout.paths), environment: 'production' };
    await storeManifest(JSON.stringify(manifest));
    await appendAudit([
      auditEntry(1, { action: 'bootstrap', from: null }),
      auditEntry(2, { action: 'start', reason: 'first canary step' }),
      auditEntry(3, { action: 'watch-rollback', forced: false }),
    ]);
    const reports = [
      [event({ version: V2 })],
      [event({ version: V2, kind: 'load-failure', value: 20_000 }), event({ version: V1 })],
      [event({ version: V1 })],
    ];
    for (const events of reports) {
      const r = await s.post(API_PATHS.rolloutHealth, { ticket: ticketFor({ canary: true }), events });
      expect(r.status).toBe(204);
    }

    const r = await s.get(VIEW, admin.token);
    expect(r.status).toBe(200);
    expect(v.is(AdminRolloutsSchema, r.body)).toBe(true);
    expect(r.body.environment).toBe('production');
    expect(r.body.manifest).toEqual(manifest);
    // The gate's answer now (issue 48): 2 canary visitors are too few to decide anything.
    expect(r.body.gates).toEqual([
      expect.objectContaining({ remote: 'mf-research', version: V2, percent: 10, answer: 'inconclusive' }),
    ]);
    expect(r.body.gates[0].reason).toMatch(
      /^inconclusive: not enough visitors in the window \(2 of 50 canary visitors/,
    );
    // The same answer on /metrics (api_rollout_gate: 1 for the answer, 0 for the others), and the step.
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    const gate = (answer: string) =>
      `api_rollout_gate{environment="production",remote="mf-research",answer="${answer}"}`;
    expect(metrics).toContain(`${gate('inconclusive')} 1\n`);
    for (const answer of ['advance', 'rollback', 'extending'])
      expect(metrics).toContain(`${gate(answer)} 0\n`);
    expect(metrics).toContain(
      'api_rollout_canary_percent{environment="production",remote="mf-research"} 10\n',
    );
    expect(metrics).not.toMatch(/api_rollout_gate\{[^}]*remote="mf-(account|survey|public-pages)"/);
    expect(r.body.health).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          remote: 'mf-research',
          version: V2,
          visitors: 2,
          views: 2,
          errorRate: 0.5,
        }),
        expect.objectContaining({ remote: 'mf-research', version: V1, visitors: 2, views: 2, errorRate: 0 }),
      ]),
    );
    // The canary against stable over time: one series per track, each point per visitor.
    const [chart] = r.body.charts;
    expect(chart.remote).toBe('mf-research');
    expect(chart.series.map((x: { track: string; version: string }) => `${x.track} ${x.version}`)).toEqual([
      `stable ${V1}`,
      `canary ${V2}`,
    ]);
    expect(chart.series[1].points).toEqual([expect.objectContaining({ visitors: 2, errorRate: 0.5 })]);
    expect(r.body.audit.map((e: { actor: string }) => e.actor)).toEqual(['tester3', 'tester2', 'tester1']);
    expect(r.body.audit[1]).toEqual({
      ...auditEntry(2, { action: 'start', reason: 'first canary step' }),
      environment: 'production',
    });
  });

  it('gives at most the 100 newest audit entries', async () => {
    await appendAudit(Array.from({ length: 120 }, (_, i) => auditEntry(100 + i)));
    const r = await s.get(VIEW, admin.token);
    expect(r.body.audit).toHaveLength(100);
    expect(r.body.audit[0].actor).toBe('tester219');
    expect(r.body.audit[99].actor).toBe('tester120');
  });

  it('shows a corrupt or invalid manifest as none, without a 500', async () => {
    const corrupt = '{"schemaVersion": 1, "remotes": ';
    // On PostgreSQL the column is jsonb (migration 28): a manifest that is not JSON cannot be stored at all.
    if (s.sql.dialect === 'postgres') await expect(storeManifest(corrupt)).rejects.toThrow(/json/i);
    const texts = s.sql.dialect === 'postgres' ? [] : [corrupt];
    for (const text of [...texts, JSON.stringify({ schemaVersion: 2 })]) {
      await storeManifest(text);
      const r = await s.get(VIEW, admin.token);
      expect(r.status).toBe(200);
      expect(r.body.manifest).toBeNull();
      expect(r.body.audit.length).toBeGreaterThan(0);
    }
  });

  it('shows another environment with ?environment=, and 404 for one this install does not know', async () => {
    const r = await s.get(`${VIEW}?environment=staging`, admin.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ environment: 'staging', manifest: null, audit: [] });
    const unknown = await s.get(`${VIEW}?environment=qa`, admin.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('staging, production');
  });
});
