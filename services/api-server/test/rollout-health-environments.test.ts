import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { verifyTicket } from '@app/rollout/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLLOUT_MESSAGES } from '../src/services/rollout-messages';
import { deployToken } from './deploy-fixtures';
import { event, KEY, newAddress, ticketFor } from './health-tickets';
import { startTestServer, type TestServer, type TestUser, tempRollout } from './helpers';
import { ACCOUNT_V1, V1, V2 } from './rollout-fixtures';

// Issue 44: reports are read per environment, a server-render failure comes from the ticket only, and the
// gate counts at most ADDRESS_VISITOR_CAP visitors per address group.
const HEALTH = API_PATHS.rolloutHealth;

let s: TestServer;
let admin: TestUser;
let deploy: string;
beforeAll(async () => {
  s = await startTestServer({ rollout: tempRollout() });
  admin = await s.user(['admin'], 'admin');
  deploy = await deployToken(s, 'ops');
});
afterAll(() => s.close());

/** What `rollout status` and `watch` read: the deploy API's health route. */
const deployHealth = async (environment: string, version: string, remote = 'mf-research') => {
  const r = await s.get(`${DEPLOY_PATHS.health(environment, remote)}?version=${version}`, deploy);
  expect(r.status).toBe(200);
  return r.body;
};
const adminHealth = async (environment?: string) => {
  const r = await s.get(
    `${ADMIN_PATHS.rollouts}${environment ? `?environment=${environment}` : ''}`,
    admin.token,
  );
  expect(r.status).toBe(200);
  return r.body;
};
/** The rows stored for one page view (the table keeps the ticket's id, not the token). */
const rowsOfTicket = async (token: string) => {
  const verdict = verifyTicket(token, KEY);
  if (!verdict.ok) throw new Error(verdict.reason);
  return s.sql.all<{ environment: string; kind: string; version: string; track: string }>(
    'SELECT environment, kind, version, track FROM rollout_health_signals WHERE ticket = ? ORDER BY kind, version',
    [verdict.ticket.id],
  );
};
const refusals = async () =>
  Object.fromEntries((await s.ctx.rollout.health.refusals(0)).map((r) => [r.reason, r.count])) as Record<
    string,
    number
  >;

describe('reports per environment', () => {
  it("keeps a staging page view's report out of production's health route and admin view", async () => {
    const staging = ticketFor({ environment: 'staging', canary: true });
    const failed = [event({ version: V2, kind: 'load' }), event({ version: V2, kind: 'render-error' })];
    expect((await s.post(HEALTH, { ticket: staging, events: failed })).status).toBe(204);
    const production = ticketFor({ environment: 'production', canary: true });
    const fine = [event({ version: V2, kind: 'load' }), event({ version: V2, kind: 'lcp', value: 1200 })];
    expect((await s.post(HEALTH, { ticket: production, events: fine })).status).toBe(204);

    expect(await deployHealth('staging', V2)).toEqual({
      remote: 'mf-research',
      version: V2,
      since: null,
      visitors: [{ views: 1, errorViews: 1, lcp: null, inp: null, cls: null }],
      addresses: 1,
      overCap: 0,
    });
    expect((await deployHealth('production', V2)).visitors).toEqual([
      { views: 1, errorViews: 0, lcp: 1200, inp: null, cls: null },
    ]);

    const ofVersion = (view: { health: Array<{ version: string }> }) =>
      view.health.filter((h) => h.version === V2);
    const productionView = await adminHealth();
    expect(productionView.environment).toBe('production');
    expect(ofVersion(productionView)).toEqual([
      expect.objectContaining({ visitors: 1, views: 1, errorRate: 0, lcp: 1200 }),
    ]);
    const chart = productionView.charts.find((c: { remote: string }) => c.remote === 'mf-research');
    expect(chart.series).toEqual([
      expect.objectContaining({
        track: 'canary',
        version: V2,
        points: [expect.objectContaining({ visitors: 1, errorRate: 0 })],
      }),
    ]);
    const stagingView = await adminHealth('staging');
    expect(ofVersion(stagingView)).toEqual([
      expect.objectContaining({ visitors: 1, views: 1, errorRate: 1, lcp: null }),
    ]);
  });

  it('shows the same refusals whichever environment is viewed (a refused report has none to trust)', async () => {
    expect((await s.post(HEALTH, { ticket: 'made.up', events: [event()] })).status).toBe(400);
    const [production, staging] = [await adminHealth('production'), await adminHealth('staging')];
    expect(production.refusals).toEqual(staging.refusals);
    expect(production.refusals).toContainEqual({ reason: 'forged', count: expect.any(Number) });
  });
});

describe("server-render failures, from the page view's ticket", () => {
  it('are stored once per page view, charged to the version served, even when it reports twice', async () => {
    const ticket = ticketFor({
      environment: 'staging',
      canary: true,
      remotes: {
        'mf-research': { version: V2, track: 'canary', fallback: V1 },
        'mf-account': { version: ACCOUNT_V1, track: 'stable', fallback: null },
      },
      // mf-survey is not served by this page view: nothing to charge it to.
      renderFailures: ['mf-research', 'mf-survey'],
    });
    expect((await s.post(HEALTH, { ticket, events: [event({ version: V2, kind: 'load' })] })).status).toBe(
      204,
    );
    // The page is hidden a second time: what is new counts, and the failure stored the first time is no replay.
    const second = [event({ remote: 'mf-account', version: ACCOUNT_V1, kind: 'load' })];
    expect((await s.post(HEALTH, { ticket, events: second })).status).toBe(204);
    expect(await rowsOfTicket(ticket)).toEqual([
      { environment: 'staging', kind: 'load', version: V2, track: 'canary' },
      { environment: 'staging', kind: 'load', version: ACCOUNT_V1, track: 'stable' },
      { environment: 'staging', kind: 'server-render-failure', version: V2, track: 'canary' },
    ]);
    // A third report of a kind already sent is still a replay, refused whole.
    const replay = await s.post(HEALTH, { ticket, events: [event({ version: V2, kind: 'load' })] });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: ROLLOUT_MESSAGES.refused.replayed });
    // The gate sees one failed page view of mf-research's canary in staging.
    const { visitors } = await deployHealth('staging', V2);
    expect(visitors).toContainEqual({ views: 1, errorViews: 1, lcp: null, inp: null, cls: null });
    expect((await deployHealth('staging', ACCOUNT_V1, 'mf-account')).visitors).toEqual([
      { views: 1, errorViews: 0, lcp: null, inp: null, cls: null },
    ]);
  });

  it('are refused from the browser (400, counted as server-only), and nothing of that report is stored', async () => {
    const before = {
      refused: (await refusals())['server-only'] ?? 0,
      rows: (await deployHealth('production', V1)).visitors.length,
    };
    const ticket = ticketFor();
    const r = await s.post(HEALTH, {
      ticket,
      events: [event(), event({ kind: 'server-render-failure', value: undefined })],
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: ROLLOUT_MESSAGES.refused['server-only'] });
    expect((await refusals())['server-only']).toBe(before.refused + 1);
    expect((await deployHealth('production', V1)).visitors).toHaveLength(before.rows);
    // The same page view's honest report still counts.
    expect((await s.post(HEALTH, { ticket, events: [event()] })).status).toBe(204);
  });
});

describe('visitors per address group', () => {
  it('counts at most 5 visitors of one address, and says how many it left out', async () => {
    const office = newAddress();
    for (let i = 0; i < 7; i++) {
      const ticket = ticketFor({ environment: 'staging', address: office, visitor: `anon:office-${i}` });
      expect((await s.post(HEALTH, { ticket, events: [event()] })).status).toBe(204);
    }
    const home = ticketFor({ environment: 'staging', visitor: 'anon:at-home' });
    expect((await s.post(HEALTH, { ticket: home, events: [event()] })).status).toBe(204);
    const answer = await deployHealth('staging', V1);
    expect(answer).toMatchObject({ addresses: 2, overCap: 2 });
    expect(answer.visitors).toHaveLength(6);
    const row = (await adminHealth('staging')).health.find((h: { version: string }) => h.version === V1);
    expect(row).toMatchObject({ visitors: 6, views: 6 });
  });
});
