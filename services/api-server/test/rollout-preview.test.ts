import { API_PATHS, PreviewGrantSchema } from '@app/contracts';
import { signPreviewToken } from '@app/rollout/node';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { ROLLOUT_MESSAGES as M } from '../src/services/rollout-messages';
import { startTestServer, type TestServer, tempRollout } from './helpers';
import { ACCOUNT_V1, entryIntegrityOf, release, UNRELEASED, V1, writeSecret } from './rollout-fixtures';

const PREVIEW = API_PATHS.rolloutPreview;
const HOUR = 3600_000;

let s: TestServer;
let rollout: Config['rollout'];
let secret: string;
beforeAll(async () => {
  rollout = tempRollout();
  release(rollout.paths, 'mf-research', V1);
  release(rollout.paths, 'mf-account', ACCOUNT_V1);
  secret = writeSecret(rollout.paths);
  s = await startTestServer({ rollout });
});
afterAll(() => s.close());

const sign = (over: { remote?: string; version?: string; exp?: number } = {}, key = secret) =>
  signPreviewToken({ remote: 'mf-research', version: V1, exp: Date.now() + HOUR, ...over } as never, key);

describe('POST /api/rollout/preview', () => {
  it('grants a valid link: remote, version, expiry and the entry digest recorded at release', async () => {
    const exp = Date.now() + HOUR;
    const r = await s.post(PREVIEW, { token: sign({ exp }) });
    expect(r.status).toBe(200);
    expect(v.is(PreviewGrantSchema, r.body)).toBe(true);
    expect(r.body).toEqual({
      remote: 'mf-research',
      version: V1,
      expiresAt: new Date(exp).toISOString(),
      integrity: entryIntegrityOf('mf-research', V1),
    });
  });

  it('refuses a tampered, foreign or malformed token as not valid', async () => {
    const token = sign();
    const [payload = '', signature = ''] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ remote: 'mf-research', version: V1, exp: Date.now() + 1e9 }));
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const tokens = [
      `${flip(payload, 3)}.${signature}`,
      `${payload}.${flip(signature, 5)}`,
      `${forged.toString('base64url')}.${signature}`,
      sign({}, 'another-secret-of-32-characters!'),
      'not-a-token',
      `${token}.extra`,
      '.',
    ];
    for (const t of tokens) {
      const r = await s.post(PREVIEW, { token: t });
      expect(r.status, t).toBe(400);
      expect(r.body).toEqual({ error: M.previewInvalid });
    }
  });

  it('refuses an expired link', async () => {
    const r = await s.post(PREVIEW, { token: sign({ exp: Date.now() - 1000 }) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: M.previewExpired });
  });

  it('refuses a version that is not released, or released only for another remote', async () => {
    for (const token of [
      sign({ version: UNRELEASED }),
      // signed for mf-account with a version released only under mf-research
      sign({ remote: 'mf-account', version: V1 }),
    ]) {
      const r = await s.post(PREVIEW, { token });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: M.previewNotReleased });
    }
  });

  it('answers a missing or malformed body with a 400 error text', async () => {
    for (const body of [{}, { token: '' }, { token: 5 }, null, [], { token: 'x'.repeat(1001) }]) {
      const r = await s.post(PREVIEW, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    expect((await s.req('POST', PREVIEW, { rawBody: '{"token":' })).status).toBe(400);
  });
});

describe('preview links without a secret', () => {
  it('are not enabled, until a secret file appears (no restart)', async () => {
    const bare = tempRollout();
    release(bare.paths, 'mf-research', V1);
    const server = await startTestServer({ rollout: bare });
    try {
      const r = await server.post(PREVIEW, { token: sign() });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: M.previewDisabled });
      writeSecret(bare.paths, secret);
      expect((await server.post(PREVIEW, { token: sign() })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('ROLLOUT_PREVIEW_SECRET takes the place of the file', async () => {
    const envSecret = 'from-the-environment-0123456789';
    const withEnv = tempRollout({ previewSecret: envSecret });
    release(withEnv.paths, 'mf-research', V1);
    const server = await startTestServer({ rollout: withEnv });
    try {
      expect((await server.post(PREVIEW, { token: sign({}, envSecret) })).status).toBe(200);
      const other = await server.post(PREVIEW, { token: sign() });
      expect(other.body).toEqual({ error: M.previewInvalid });
    } finally {
      await server.close();
    }
  });
});
