import { type Compatibility, CompatibilitySchema, type CompatRow } from '@app/contracts/compatibility';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from './context';
import { apiHealthSource } from './health';
import { formatCompatibility, formatStatus, STATUS_WIDTH, statusReport } from './status';
import { type FakeAnswer, type FakeRequest, runCli, startFakeApi } from './test-support';

const RESEARCH = '1.0.0-3fa2b1c9d0';
const CANARY = '1.1.0-abc1234def';
const ACCOUNT = '2.0.0-0123456789';
const AT = '2026-05-12T12:00:00.000Z';

const row = (over: Partial<CompatRow>): CompatRow => ({
  remote: 'mf-research',
  version: RESEARCH,
  track: 'stable',
  package: '@app/ui',
  required: '4 exports: Button, Card, Field, Badge',
  provided: 'key 3fa9c0d1e2, 21 exports',
  status: 'ok',
  conflicts: [],
  ...over,
});

/** mf-research stable is fine; its canary needs an export the live shell lacks; mf-account's contract is unreadable. */
const TABLE: Compatibility = v.parse(CompatibilitySchema, {
  environment: 'production',
  shell: { manifest: '/srv/app/shell/dist/mf-manifest.json', federationRuntime: '0.21.6' },
  rows: [
    row({}),
    row({
      package: '@app/session',
      required: '2 exports: useSession, SessionProvider',
      provided: 'key 9e8d7c6b5a, 12 exports',
    }),
    row({ package: 'react', required: 'major 19', provided: '19.3.1' }),
    row({ package: 'mf_research/App', required: 'props {}', provided: 'the shell passes {}' }),
    row({ package: 'federation runtime', required: '0.21.6', provided: '0.21.6' }),
    row({ version: CANARY, track: 'canary', package: 'react', required: 'major 19', provided: '19.3.1' }),
    row({
      version: CANARY,
      track: 'canary',
      required: '5 exports: Button, Card, Field, Badge, DataGrid',
      status: 'conflict',
      conflicts: [
        {
          kind: 'missing-export',
          package: '@app/ui',
          export: 'DataGrid',
          needs: `mf-research ${CANARY} (canary in production)`,
          provider: 'the live shell',
          detail:
            'the live shell’s @app/ui has no export DataGrid (mf-research imports it as (props: DataGridProps) => JSX.Element); ship the shell first',
        },
      ],
    }),
    row({
      remote: 'mf-account',
      version: ACCOUNT,
      package: '@app/ui',
      required: 'unreadable',
      provided: 'key 3fa9c0d1e2, 21 exports',
      status: 'unknown',
      conflicts: [
        {
          kind: 'unknown',
          package: 'mf-compat.json',
          needs: `mf-account ${ACCOUNT} (stable in production)`,
          provider: 'the live shell',
          detail: 'the release has no mf-compat.json (built before issue 45): it cannot be vouched for',
        },
      ],
    }),
  ],
});

describe('the compatibility table in a terminal', () => {
  it('collapses ok rows to one line per remote version and shows conflicts and unknowns in full', () => {
    const lines = formatCompatibility(TABLE);
    expect(lines.slice(0, 2)).toEqual([
      'compatibility in "production" with the live shell (federation runtime 0.21.6)',
      '  shell manifest /srv/app/shell/dist/mf-manifest.json',
    ]);
    const text = lines.join('\n');
    expect(text).toContain(
      `mf-research ${RESEARCH} (stable)\n  ok        @app/ui, @app/session, react, mf_research/App, federation runtime\n`,
    );
    expect(text).toContain(`mf-research ${CANARY} (canary)\n  ok        react\n  CONFLICT  @app/ui\n`);
    expect(text).toContain('            requires 5 exports: Button, Card, Field, Badge, DataGrid\n');
    expect(text).toContain('            provided key 3fa9c0d1e2, 21 exports\n');
    expect(text).toContain(
      '            - missing-export @app/ui DataGrid: the live shell’s @app/ui has no export',
    );
    expect(text).toContain(
      `              needed by mf-research ${CANARY} (canary in production); provided by the live\n              shell\n`,
    );
    expect(text).toContain(
      `mf-account ${ACCOUNT} (stable)\n  unknown   @app/ui  requires unreadable · provided key 3fa9c0d1e2, 21 exports\n`,
    );
    expect(lines.at(-1)).toBe('1 conflict(s), 1 unknown, of 8 checks');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(STATUS_WIDTH);
  });

  it('says when everything is compatible, when nothing is live, and when the table is unavailable', () => {
    const ok = { ...TABLE, rows: TABLE.rows.filter((r) => r.status === 'ok') };
    expect(formatCompatibility(ok).at(-1)).toBe('every live version is compatible (6 checks)');
    expect(formatCompatibility({ ...TABLE, rows: [] }).at(-1)).toBe('  no live remote versions');
    expect(formatCompatibility(null, 'the API is old')).toEqual([
      'compatibility: unavailable (the API is old)',
    ]);
  });
});

/** A deploy API with one environment where mf-research runs RESEARCH; `table` answers its compatibility. */
function deployApi(table: FakeAnswer) {
  return startFakeApi((request: FakeRequest) => {
    const path = request.url.split('?')[0];
    if (path === DEPLOY_PATHS.environment('production'))
      return {
        status: 200,
        headers: { etag: '"3"' },
        body: {
          environment: 'production',
          revision: 3,
          updatedAt: AT,
          manifest: {
            schemaVersion: 1,
            environment: 'production',
            revision: 3,
            updatedAt: AT,
            remotes: { 'mf-research': { stable: RESEARCH, previous: [] } },
          },
        },
      };
    if (path === DEPLOY_PATHS.health('production', 'mf-research'))
      return { status: 200, body: { remote: 'mf-research', version: RESEARCH, since: null, visitors: [] } };
    if (path === DEPLOY_PATHS.compatibility('production')) return table;
    return undefined;
  });
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const contextFor = (url: string) =>
  createContext({ to: url, env: 'production', processEnv: { DEPLOY_TOKEN: 'mfd_test' }, root: '/tmp' });

describe('rollout status with the compatibility table', () => {
  it('reads the table over the API and prints it after the remotes', async () => {
    const api = await deployApi({ status: 200, body: TABLE });
    stop = api.stop;
    const ctx = contextFor(api.url);
    const report = await statusReport(ctx, apiHealthSource(ctx.client));
    expect(report.compatibility).toEqual(TABLE);
    expect(report.compatibilityError).toBeNull();
    const text = formatStatus(report);
    expect(text).toMatch(/^deployment "production" · revision 3/);
    expect(text).toContain(`\nmf-research\n  stable   ${RESEARCH}`);
    expect(text).toContain('\n\ncompatibility in "production"');
    expect(text).toContain('  CONFLICT  @app/ui');
    const call = api.requests.find((r) => r.url === DEPLOY_PATHS.compatibility('production'));
    expect(call?.authorization).toBe('Bearer mfd_test');
  });

  it('an API without the table (404): the status still prints, and says the table is unavailable', async () => {
    const api = await deployApi({ status: 404, body: { error: 'Not found' } });
    stop = api.stop;
    const ctx = contextFor(api.url);
    const report = await statusReport(ctx, apiHealthSource(ctx.client));
    expect(report.compatibility).toBeNull();
    expect(formatStatus(report).split('\n').at(-1)).toBe(
      `compatibility: unavailable (the deploy API at ${api.url} has no compatibility table (it is older than issue 45))`,
    );
  });

  it('a refusal of the table (403) is said under the status, not a failure', async () => {
    const api = await deployApi({
      status: 403,
      body: { error: 'This token may not read the compatibility table' },
    });
    stop = api.stop;
    const ctx = contextFor(api.url);
    const report = await statusReport(ctx, apiHealthSource(ctx.client));
    expect(report.compatibilityError).toBe('This token may not read the compatibility table');
  });

  it('--json carries the table', async () => {
    const api = await deployApi({ status: 200, body: TABLE });
    stop = api.stop;
    const cli = await runCli('rollout', ['status', '--json', '--to', api.url], { DEPLOY_TOKEN: 'mfd_test' });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ environment: 'production', compatibility: TABLE });
  });
});

describe("rollout status with the gate's answer", () => {
  const CANARY_V = '1.3.0-cccccccccc';
  /** mf-research with a canary at 10 %: 3 canary visitors, 200 stable ones, no server renders yet. */
  function canaryApi() {
    return startFakeApi((request: FakeRequest) => {
      const [path, query = ''] = request.url.split('?');
      const version = new URLSearchParams(query).get('version');
      if (path === DEPLOY_PATHS.environment('production')) {
        const manifest = {
          schemaVersion: 1,
          environment: 'production',
          revision: 4,
          updatedAt: AT,
          remotes: {
            'mf-research': {
              stable: RESEARCH,
              previous: [],
              canary: { version: CANARY_V, percent: 10, startedAt: AT, stepStartedAt: AT },
            },
          },
        };
        return {
          status: 200,
          headers: { etag: '"4"' },
          body: { environment: 'production', revision: 4, updatedAt: AT, manifest },
        };
      }
      const one = { views: 1, errorViews: 0, lcp: null, inp: null, cls: null };
      if (path === DEPLOY_PATHS.health('production', 'mf-research'))
        return {
          status: 200,
          body: {
            remote: 'mf-research',
            version,
            since: AT,
            visitors: Array(version === CANARY_V ? 3 : 200).fill(one),
          },
        };
      if (path === DEPLOY_PATHS.renders('production', 'mf-research'))
        return {
          status: 200,
          body: {
            remote: 'mf-research',
            version,
            since: AT,
            figures: { renders: 0, failures: 0, slow: 0, durationMs: 0 },
          },
        };
      if (path === DEPLOY_PATHS.compatibility('production'))
        return { status: 404, body: { error: 'Not found' } };
      return undefined;
    });
  }

  it('says the gate is inconclusive, and why, under the canary', async () => {
    const api = await canaryApi();
    stop = api.stop;
    const ctx = contextFor(api.url);
    const report = await statusReport(ctx, apiHealthSource(ctx.client));
    const research = report.remotes.find((r) => r.remote === 'mf-research');
    expect(research?.gate?.answer).toBe('inconclusive');
    const text = formatStatus(report);
    expect(text).toContain(
      '\n  gate     inconclusive: not enough visitors in the window (3 of 50 canary visitors this step, 0 of',
    );
    expect(
      api.requests.some((r) => r.url.startsWith(DEPLOY_PATHS.renders('production', 'mf-research'))),
    ).toBe(true);
  });
});
