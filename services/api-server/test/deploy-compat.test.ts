import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { type Compatibility, CompatibilitySchema, CompatRefusalSchema } from '@app/contracts/compatibility';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { AdminRolloutsSchema } from '@app/contracts/rollouts-admin';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUTTON, remoteContract, SHARED, shellContract } from './compat-fixtures';
import {
  command,
  deployInstall,
  deployToken,
  release,
  revisionOf,
  startDeployServer,
} from './deploy-fixtures';
import { bundleOf, fixtureDist, infoOf, upload } from './deploy-releases-fixtures';
import type { TestServer } from './helpers';

/**
 * The compatibility gate from what the code is (issue 45), through HTTP: releases, commands, preview
 * links and shell builds checked against what is live, the table, and who may check a shell.
 */
let server: TestServer;
let ops: string;
let research: string;
const NEEDS_MORE = remoteContract('mf-research', {
  requires: { '@app/ui': { Button: BUTTON, renderWhenNear: '(f: () => void) => void' } },
});
/** mf-research's live canary imports Card: a shell without it breaks that canary. */
const USES_CARD = remoteContract('mf-research', {
  requires: { '@app/ui': { Button: BUTTON, Card: '() => EmotionJSX.Element' } },
});
let canary = '';
let stable = '';

beforeAll(async () => {
  server = await startDeployServer(deployInstall());
  ops = await deployToken(server, 'ops');
  research = await deployToken(server, 'research-ci', {
    remotes: ['mf-research'],
    environments: ['staging', 'production'],
  });
  stable = await release(server, 'mf-research');
  const boot = await command(server, ops, 'production', 'mf-research', 'bootstrap', { version: stable }, 0);
  expect(boot.status).toBe(200);
  canary = await release(server, 'mf-research', undefined, USES_CARD);
  const start = await command(
    server,
    research,
    'production',
    'mf-research',
    'start',
    { version: canary, percent: 10 },
    boot.body.revision,
  );
  expect(start.status).toBe(200);
});
afterAll(() => server.close());

const shellCheck = (body: unknown, token: string, query = '') =>
  server.req('POST', `${DEPLOY_PATHS.shellCheck}${query}`, { token, body });
const shellBuild = (contract = shellContract()) => ({
  manifest: { name: 'shell', shared: SHARED, exposes: [] },
  contract,
});

describe('a release against the live shell', () => {
  const dist = fixtureDist('needs-render-when-near', { contract: NEEDS_MORE });
  const info = infoOf(dist);

  it('is refused (409) when it imports an export the live shell lacks, naming who needs what and the ways forward', async () => {
    const res = await upload(server, info.version, await bundleOf(dist, info), research);
    expect(res.status).toBe(409);
    expect(v.is(CompatRefusalSchema, res.body)).toBe(true);
    expect(res.body.conflicts).toEqual([
      {
        kind: 'missing-export',
        package: '@app/ui',
        export: 'renderWhenNear',
        needs: `mf-research ${info.version} (the release)`,
        provider: 'the live shell',
        detail: "the provider's @app/ui has no export renderWhenNear (built against (f: () => void) => void)",
      },
    ]);
    expect(res.body.error).toContain(
      `- @app/ui renderWhenNear: the provider's @app/ui has no export renderWhenNear (built against (f: () => void) => void) (mf-research ${info.version} (the release) needs it; the live shell does not provide it)`,
    );
    expect(res.body.error).toContain(
      '`pnpm ship-shell` (checked against every live remote, docs/shipping.md)',
    );
    expect(res.body.error).toContain("`privateCopies: ['@app/ui']` in the remote's webpack.config.mjs");
    expect(res.body.error).toContain('--force');
  });

  it('is accepted with ?force=1, and the audit says what was gone past', async () => {
    const res = await upload(server, info.version, await bundleOf(dist, info), research, {
      query: { force: '1' },
    });
    expect(res.status).toBe(201);
    expect(res.body.forcedConflicts).toEqual([expect.stringContaining('@app/ui renderWhenNear')]);
    const row = await server.sql.get<{ forced: number; reason: string; actor: string }>(
      `SELECT forced, reason, actor FROM deploy_audit WHERE action = 'release' AND to_state = @v`,
      { v: info.version },
    );
    expect(row?.forced).toBe(1);
    expect(row?.actor).toBe('research-ci');
    expect(row?.reason).toMatch(/^released despite compatibility conflicts: @app\/ui renderWhenNear/);
  });

  it('without mf-compat.json is an unknown conflict (409, force allowed), not a 500', async () => {
    const bare = fixtureDist('no-contract', { contract: null });
    const bareInfo = infoOf(bare);
    const res = await upload(server, bareInfo.version, await bundleOf(bare, bareInfo), research);
    expect(res.status).toBe(409);
    expect(res.body.conflicts).toEqual([
      expect.objectContaining({ kind: 'unknown', package: 'mf-compat.json' }),
    ]);
  });

  it('is refused as a canary, and as a preview link, unless forced (audited, and the table shows it)', async () => {
    const start = await command(
      server,
      research,
      'production',
      'mf-research',
      'start',
      { version: info.version, percent: 5 },
      await revisionOf(server, ops, 'production'),
    );
    expect(start.status).toBe(409);
    expect(start.body.conflicts).toEqual([
      expect.objectContaining({ export: 'renderWhenNear', needs: `mf-research ${info.version}` }),
    ]);
    const preview = await server.post(
      DEPLOY_PATHS.preview('production', 'mf-research'),
      { version: info.version },
      research,
    );
    expect(preview.status).toBe(409);
    expect(v.is(CompatRefusalSchema, preview.body)).toBe(true);
    expect(preview.body.error).toMatch(/@app\/ui renderWhenNear/);

    const forced = await server.post(
      DEPLOY_PATHS.preview('staging', 'mf-research'),
      { version: info.version, force: true },
      research,
    );
    expect(forced.status).toBe(200);
    const audit = await server.sql.get<{ forced: number; reason: string }>(
      `SELECT forced, reason FROM deploy_audit WHERE action = 'preview' AND environment = 'staging'`,
    );
    expect(audit).toEqual({
      forced: 1,
      reason: expect.stringMatching(/^previewed despite compatibility conflicts: @app\/ui renderWhenNear/),
    });
    // Staging's visitors with the link get that version: its row says why it may break.
    const staging = (await server.get(DEPLOY_PATHS.compatibility('staging'), ops)).body as Compatibility;
    expect(staging.rows.find((r) => r.package === '@app/ui')).toMatchObject({
      version: info.version,
      track: 'preview',
      status: 'conflict',
      conflicts: [expect.objectContaining({ export: 'renderWhenNear' })],
    });
    const revoked = await server.req('DELETE', DEPLOY_PATHS.previewLink('staging', forced.body.id), {
      token: ops,
    });
    expect(revoked.status).toBe(200);
  });
});

describe('a shell build before it ships', () => {
  it('is refused (409) when it removes an export a live canary uses, naming that canary', async () => {
    const withoutCard = shellContract({
      provides: { ...shellContract().provides, '@app/ui': { key: 'new', exports: { Button: BUTTON } } },
    });
    const res = await shellCheck(shellBuild(withoutCard), ops);
    expect(res.status).toBe(409);
    expect(res.body.conflicts).toEqual([
      {
        kind: 'missing-export',
        package: '@app/ui',
        export: 'Card',
        needs: `mf-research ${canary} (canary in production)`,
        provider: 'the new shell',
        detail: "the provider's @app/ui has no export Card (built against () => EmotionJSX.Element)",
      },
    ]);
    expect(res.body.error).toMatch(
      /^the new shell is not compatible with the remotes live in staging, production:/,
    );

    const forced = await shellCheck(shellBuild(withoutCard), ops, '?force=1');
    expect(forced.status).toBe(200);
    expect(forced.body.conflicts).toHaveLength(1);
    const audit = await server.get(DEPLOY_PATHS.history('production', 'mf-research'), ops);
    expect(audit.body.entries[0]).toMatchObject({
      action: 'shell-forced',
      actor: 'ops',
      remote: 'mf-research',
      forced: true,
      reason: expect.stringContaining('@app/ui Card'),
    });
  });

  it('passes (200) when it only adds an export', async () => {
    const more = shellContract({
      provides: {
        ...shellContract().provides,
        '@app/ui': {
          key: 'more',
          exports: { Button: BUTTON, Card: '() => EmotionJSX.Element', Brand: '() => null' },
        },
      },
    });
    const res = await shellCheck(shellBuild(more), ops);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      environments: [
        { environment: 'staging', liveVersions: 0 },
        { environment: 'production', liveVersions: 2 },
      ],
      conflicts: [],
    });
  });

  it('may be checked only with a token that may change every remote; a bad body is a 400', async () => {
    const scoped = await shellCheck(shellBuild(), research);
    expect(scoped.status).toBe(403);
    expect(scoped.body.error).toMatch(
      /A shell build concerns every remote in every environment; deploy token "research-ci" may change only mf-research/,
    );
    const bad = await shellCheck({ manifest: { name: 'shell' }, contract: { schema: 2 } }, ops);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Not a shell build: not a build contract/);
  });
});

describe('the compatibility table', () => {
  it('has a row per live version and package, library, exposed module and runtime; the admin view shows the same', async () => {
    const res = await server.get(DEPLOY_PATHS.compatibility('production'), research);
    expect(res.status).toBe(200);
    const table = v.parse(CompatibilitySchema, res.body) as Compatibility;
    const of = (version: string) =>
      table.rows
        .filter((r) => r.version === version)
        .map((r) => [r.track, r.package, r.required, r.provided, r.status]);
    expect(of(canary)).toEqual([
      ['canary', '@app/ui', '2 exports: Button, Card', 'key 3fa9c0d1e2, 2 exports', 'ok'],
      ['canary', 'react', 'major 19 (built with 19.3.1)', '19.3.1', 'ok'],
      ['canary', 'react-dom', 'major 19 (built with 19.3.1)', '19.3.1', 'ok'],
      ['canary', '@app/router (react-router)', 'major 7 (built with 7.18.5)', '7.18.5', 'ok'],
      ['canary', '@emotion/react', 'major 11 (built with 11.14.0)', '11.14.0', 'ok'],
      ['canary', 'mf_research/App', 'props {}', 'accepts {}', 'ok'],
      ['canary', 'federation runtime', '2.x from 2.9 (built with 2.9.2)', '2.9.2', 'ok'],
    ]);
    expect(table.shell.federationRuntime).toBe('2.9.2');

    const admin = await server.user(['admin'], 'compat-admin');
    const view = await server.get(`${ADMIN_PATHS.rollouts}?environment=production`, admin.token);
    expect(view.status).toBe(200);
    expect(v.parse(AdminRolloutsSchema, view.body).compatibility).toEqual(table);
  });
});
