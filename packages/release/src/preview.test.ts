import { readPreviewSecret, verifyPreviewToken } from '@app/rollout/node';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPreview } from './preview';
import { release } from './release';
import { lastLine, readJsonLines, runCli, type Sandbox, sandbox } from './test-support';

let s: Sandbox;
let version: string;
beforeEach(async () => {
  s = sandbox();
  version = (await release({ remote: 'mf-research', dist: s.dist() }, s.ctx)).info.version;
});
afterEach(() => s.cleanup());

const tokenOf = (url: string) => new URL(url).searchParams.get('preview');

it('signs a link for a released version that verifies for that remote and version until it expires', () => {
  const link = createPreview(s.ctx, {
    remote: 'mf-research',
    version,
    hours: 2,
    baseUrl: 'https://qa.example.com/',
  });
  expect(link.url).toBe(`https://qa.example.com/?preview=${link.token}`);
  expect(link.expiresAt).toBe('2026-11-22T12:00:00.000Z');
  const secret = readPreviewSecret(s.paths, s.env) as string;
  expect(secret).toMatch(/^[0-9a-f]{64}$/); // created on first use, in the deploy folder
  const exp = Date.parse(link.expiresAt);
  expect(verifyPreviewToken(tokenOf(link.url), secret, exp - 1)).toEqual({
    ok: true,
    claims: { remote: 'mf-research', version, exp },
  });
  expect(verifyPreviewToken(tokenOf(link.url), secret, exp)).toEqual({ ok: false, reason: 'expired' });
  expect(readJsonLines(s.paths.auditFile)).toMatchObject([
    {
      action: 'preview',
      remote: 'mf-research',
      actor: 'tester',
      to: `preview ${version} until 2026-11-22T12:00:00.000Z`,
    },
  ]);
});

it('refuses an unreleased version, a version of another remote and a bad base URL', () => {
  expect(() => createPreview(s.ctx, { remote: 'mf-research', version: '1.0.0-0000000000' })).toThrow(
    `mf-research 1.0.0-0000000000 is not released; released versions, newest first: ${version}`,
  );
  expect(() => createPreview(s.ctx, { remote: 'mf-survey', version })).toThrow(
    'mf-survey has no releases yet',
  );
  expect(() =>
    createPreview(s.ctx, { remote: 'mf-research', version, baseUrl: 'javascript:alert(1)' }),
  ).toThrow('must be http or https');
});

it('pnpm rollout preview prints the link last, with PREVIEW_BASE_URL and --hours', async () => {
  const env = { ...s.env, PREVIEW_BASE_URL: 'http://localhost:3000' };
  const result = await runCli('rollout', ['preview', 'mf-research', version, '--hours', '0.5'], env);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  const url = lastLine(result.stdout) as string;
  expect(url.startsWith('http://localhost:3000/?preview=')).toBe(true);
  const verdict = verifyPreviewToken(tokenOf(url), readPreviewSecret(s.paths, s.env) as string);
  expect(verdict).toMatchObject({ ok: true, claims: { remote: 'mf-research', version } });
  expect(result.stdout).toMatch(/^preview link \(expires \d{4}-\d\d-\d\dT[\d:.]+Z\):\n/);

  const refused = await runCli('rollout', ['preview', 'mf-research', '1.0.0-0000000000'], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe(
    `error: mf-research 1.0.0-0000000000 is not released; released versions, newest first: ${version}\n`,
  );
}, 20_000);
