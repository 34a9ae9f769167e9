import { API_PATHS, PreviewGrantSchema } from '@app/contracts';
import { DEPLOY_PATHS, type PreviewLink } from '@app/contracts/deploy';
import { newPreviewToken } from '@app/rollout/node';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config';
import { ROLLOUT_MESSAGES as M } from '../src/services/rollout-messages';
import { writeShellBuild, writeStoredBuild } from './compat-fixtures';
import { deployToken } from './deploy-fixtures';
import { startTestServer, type TestServer, tempRollout } from './helpers';
import { ACCOUNT_V1, entryIntegrityOf, release, V1 } from './rollout-fixtures';

const CHECK = API_PATHS.rolloutPreview;
const HOUR = 3600_000;

/** The API's clock: the tests step it past a link's expiry instead of waiting. */
let clock = Date.parse('2026-06-01T12:00:00.000Z');
let s: TestServer;
let admin: string;
beforeAll(async () => {
  const rollout = tempRollout();
  // Releases made before the API kept them (folders only): a link names them as well.
  release(rollout.paths, 'mf-research', V1);
  release(rollout.paths, 'mf-account', ACCOUNT_V1);
  // What the compatibility gate reads of each (issue 45): builds that fit the live shell.
  writeStoredBuild(rollout.paths.store, 'mf-research', V1);
  writeStoredBuild(rollout.paths.store, 'mf-account', ACCOUNT_V1);
  s = await startTestServer(
    { rollout, deploy: { ...DEFAULT_CONFIG.deploy, shellManifest: writeShellBuild() } },
    () => clock,
  );
  admin = await deployToken(s, 'ops');
});
afterAll(() => s.close());

/** A link made through the deploy API; this API serves production (DEPLOY_ENV's default). */
async function link(environment: string, remote = 'mf-research', version = V1): Promise<PreviewLink> {
  const res = await s.post(DEPLOY_PATHS.preview(environment, remote), { version, hours: 1 }, admin);
  if (res.status !== 200) throw new Error(`preview: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('POST /api/rollout/preview (the shell, where no edge served the page)', () => {
  it("grants a link made for this API's environment: remote, version, expiry and the digest recorded at release", async () => {
    const made = await link('production');
    const r = await s.post(CHECK, { token: made.token });
    expect(r.status).toBe(200);
    expect(v.is(PreviewGrantSchema, r.body)).toBe(true);
    expect(r.body).toEqual({
      remote: 'mf-research',
      version: V1,
      expiresAt: new Date(clock + HOUR).toISOString(),
      integrity: entryIntegrityOf('mf-research', V1),
    });
    const account = await link('production', 'mf-account', ACCOUNT_V1);
    expect((await s.post(CHECK, { token: account.token })).body).toMatchObject({
      remote: 'mf-account',
      version: ACCOUNT_V1,
      integrity: entryIntegrityOf('mf-account', ACCOUNT_V1),
    });
  });

  it('refuses a link made for another environment, a token never made and malformed ones as not valid', async () => {
    const staging = await link('staging');
    const flip = (t: string) => `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [
      staging.token,
      newPreviewToken(),
      flip((await link('production')).token),
      'not-a-token',
    ]) {
      const r = await s.post(CHECK, { token });
      expect(r.status, token).toBe(400);
      expect(r.body).toEqual({ error: 'This preview link is not valid.' });
    }
  });

  it('refuses a revoked link', async () => {
    const made = await link('production');
    const revoked = await s.del(DEPLOY_PATHS.previewLink('production', made.id), admin);
    expect(revoked.status).toBe(200);
    const r = await s.post(CHECK, { token: made.token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: M.previewRevoked });
    expect(M.previewRevoked).toBe('This preview link has been revoked.');
  });

  it('refuses a link once the clock passes its expiry', async () => {
    const made = await link('production');
    clock += HOUR - 1;
    expect((await s.post(CHECK, { token: made.token })).status).toBe(200);
    clock += 1;
    const r = await s.post(CHECK, { token: made.token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: M.previewExpired });
  });

  it('answers a missing or malformed body with a 400 error text', async () => {
    for (const body of [{}, { token: '' }, { token: 5 }, null, [], { token: 'x'.repeat(1001) }]) {
      const r = await s.post(CHECK, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    expect((await s.req('POST', CHECK, { rawBody: '{"token":' })).status).toBe(400);
  });
});
