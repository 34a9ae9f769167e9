import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { renderReportKey, signRenderReport } from '@app/rollout/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployToken } from './deploy-fixtures';
import { startTestServer, TEST_EDGE_SECRET, type TestServer, type TestUser, tempRollout } from './helpers';
import { V1, V2, writeManifest } from './rollout-fixtures';

// Issue 48 (docs/decisions/0043-server-signals-in-the-gate.md): the edges' server renders per version, sent
// in batches signed with the secret edge and API share. Only a batch signed now with that secret counts;
// everything else is a 4xx with `error`, and stores nothing.
const RENDERS = API_PATHS.rolloutRenders;
const KEY = renderReportKey(TEST_EDGE_SECRET);
const MINUTE = Math.floor(Date.now() / 60_000);

const rollout = tempRollout();
let s: TestServer;
let deploy: string;
let admin: TestUser;
beforeAll(async () => {
  s = await startTestServer({ rollout });
  deploy = await deployToken(s, 'ops');
  admin = await s.user(['admin'], 'admin');
});
afterAll(() => s.close());

let batches = 0;
const batch = (entries: object[], o: { environment?: string; id?: string } = {}) =>
  JSON.stringify({
    id: o.id ?? `batch-${++batches}-abcdefghijklmnop`,
    environment: o.environment ?? 'production',
    entries,
  });
const entry = (o: Partial<Record<string, unknown>> = {}) => ({
  remote: 'mf-research',
  version: V2,
  track: 'canary',
  minute: MINUTE,
  renders: 10,
  failures: 4,
  slow: 1,
  durationMs: 2500,
  ...o,
});

async function send(body: string, headers: Record<string, string> = signRenderReport(body, KEY)) {
  const r = await fetch(`${s.url}${RENDERS}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as { error?: string }) : null };
}

const stored = async () =>
  Number(await s.sql.value('SELECT COALESCE(SUM(renders), 0) FROM rollout_render_figures'));
const figures = async (version: string, environment = 'production') => {
  const r = await s.get(`${DEPLOY_PATHS.renders(environment, 'mf-research')}?version=${version}`, deploy);
  expect(r.status).toBe(200);
  return r.body.figures;
};

describe("the edges' render figures", () => {
  it('stores a signed batch, summed per minute, and the deploy API reads it back per version', async () => {
    expect(
      (await send(batch([entry(), entry({ version: V1, track: 'stable', failures: 0, slow: 0 })]))).status,
    ).toBe(204);
    // A second edge's batch of the same minute adds to the same row.
    expect((await send(batch([entry({ renders: 5, failures: 5, slow: 0, durationMs: 500 })]))).status).toBe(
      204,
    );
    expect(await figures(V2)).toEqual({ renders: 15, failures: 9, slow: 1, durationMs: 3000 });
    expect(await figures(V1)).toMatchObject({ renders: 10, failures: 0 });
    expect(await figures(V2, 'staging')).toEqual({ renders: 0, failures: 0, slow: 0, durationMs: 0 });
    expect(
      Number(await s.sql.value('SELECT COUNT(*) FROM rollout_render_figures WHERE version = ?', [V2])),
    ).toBe(1);
  });

  it('needs a deploy token to read', async () => {
    const r = await s.get(`${DEPLOY_PATHS.renders('production', 'mf-research')}?version=${V2}`);
    expect(r.status).toBe(401);
  });

  describe('refuses with a 4xx and `error`, storing nothing,', () => {
    const refused = async (
      body: string,
      headers: Record<string, string> | undefined,
      status: number,
      error: RegExp,
    ) => {
      const before = await stored();
      const r = await send(body, headers);
      expect(r.status).toBe(status);
      expect(r.body?.error).toMatch(error);
      expect(await stored()).toBe(before);
    };

    it('a batch without a signature', async () => {
      await refused(batch([entry()]), {}, 401, /not signed/);
    });

    it('a forged signature: another key, or an edited body under a real signature', async () => {
      const body = batch([entry()]);
      await refused(body, signRenderReport(body, renderReportKey('not-our-secret')), 401, /signature/);
      const edited = body.replace('"failures":4', '"failures":0');
      await refused(edited, signRenderReport(body, KEY), 401, /signature/);
      const headers = signRenderReport(body, KEY);
      // The time is under the MAC: a fresh time on an old signature is a forgery too.
      await refused(body, { ...headers, 'x-edge-report-time': String(Date.now() + 1) }, 401, /signature/);
    });

    it('a stale timestamp (a batch captured and sent again later), and one from the future', async () => {
      const body = batch([entry()]);
      await refused(
        body,
        signRenderReport(body, KEY, Date.now() - 10 * 60_000),
        401,
        /minutes from the API's clock/,
      );
      await refused(
        body,
        signRenderReport(body, KEY, Date.now() + 10 * 60_000),
        401,
        /minutes from the API's clock/,
      );
    });

    it('the same signed batch sent twice', async () => {
      const body = batch([entry()]);
      const headers = signRenderReport(body, KEY);
      expect((await send(body, headers)).status).toBe(204);
      await refused(body, headers, 409, /stored already/);
    });

    it('a body too large', async () => {
      const body = batch(Array.from({ length: 600 }, (_, i) => entry({ minute: MINUTE - i })));
      expect(body.length).toBeGreaterThan(64 * 1024);
      await refused(body, signRenderReport(body, KEY), 413, /too large/);
    });

    it('garbage, signed or not: not JSON, the wrong shape, impossible counts, a preview track', async () => {
      for (const body of [
        'not json',
        '{"id":"x"}',
        batch([]),
        batch([entry({ failures: 11 })]),
        batch([entry({ renders: -1 })]),
        batch([entry({ track: 'preview' })]),
        batch([entry({ remote: 'mf-nothing' })]),
        batch([entry({ extra: 1 })]),
        batch([entry()], { environment: '../etc' }),
      ]) {
        await refused(body, signRenderReport(body, KEY), 400, /./);
      }
      await refused('not json', {}, 401, /not signed/);
    });
  });

  it("a canary whose renders fail is the gate's rollback on the rollouts screen, with no browser report", async () => {
    // The step starts now and the figures are this minute's, as a live edge's would be (MINUTE, taken when the
    // file loaded, may be a minute before the step when the clock turns in between).
    const now = new Date();
    const minute = Math.floor(now.getTime() / 60_000);
    const manifest = { ...writeManifest(rollout.paths, now), environment: 'production' };
    await s.sql.run('DELETE FROM deployments');
    await s.sql.run(
      `INSERT INTO deployments (environment, revision, manifest_json, updated_at) VALUES ('production', 3, @text, NULL)`,
      { text: JSON.stringify(manifest) },
    );
    const body = batch([
      entry({ renders: 80, failures: 80, minute }),
      entry({ version: V1, track: 'stable', renders: 500, failures: 0, minute }),
    ]);
    expect((await send(body)).status).toBe(204);
    const r = await s.get(ADMIN_PATHS.rollouts, admin.token);
    expect(r.status).toBe(200);
    expect(r.body.gates).toEqual([
      expect.objectContaining({ remote: 'mf-research', version: V2, answer: 'rollback' }),
    ]);
    expect(r.body.gates[0].reason).toMatch(
      /^server render failures: canary \d+\.\d % of \d+ renders, stable 0\.0 % of \d+ renders/,
    );
  });
});
