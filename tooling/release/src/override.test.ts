import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startTestApi, type TestApi } from './test-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ DEV_OVERRIDE_ORIGINS: 'https://dev.team.example' });
});
afterAll(() => api?.stop());

describe('pnpm rollout override (issue 47)', () => {
  it('prints the link for a loopback dev server, and revoke-override ends it', async () => {
    const env = { DEPLOY_API_URL: api.url, DEPLOY_TOKEN: api.adminToken };
    const made = await runCli(
      'rollout',
      ['override', 'mf-research', 'http://127.0.0.1:3102', '--env', 'staging', '--hours', '1'],
      env,
    );
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const [head, hint, link] = made.stdout.trimEnd().split('\n');
    const id = /^override (\S+): /.exec(head ?? '')?.[1] as string;
    expect(head).toMatch(
      new RegExp(
        `^override ${id}: mf-research from http://127.0.0.1:3102/mf-manifest.json in "staging", expires `,
      ),
    );
    expect(hint).toBe(`revoke it with: pnpm rollout revoke-override ${id} --env staging`);
    expect(link).toMatch(/\/\?override=mfo_[A-Za-z0-9_-]{43}$/);
    // A browser opens it, views two pages and exits, as an edge reports it.
    const token = new URL(link ?? '').searchParams.get('override');
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
    for (const use of [
      { token, event: 'open', address: '10.1.2.3', userAgent: chrome },
      { token, event: 'views', views: 1 },
      { token, event: 'exit', views: 1, address: '10.1.2.3', userAgent: chrome },
    ]) {
      const res = await fetch(`${api.url}${DEPLOY_PATHS.overrideUses('staging')}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(use),
      });
      expect(res.status).toBe(200);
    }
    const revoked = await runCli('rollout', ['revoke-override', id, '--env', 'staging'], env);
    expect(revoked.stderr).toBe('');
    expect(revoked.stdout).toMatch(
      new RegExp(
        `^override ${id} \\(mf-research from \\S+\\) in "staging" is revoked since \\S+ \\(by \\S+\\); used: 2 page views, 1 open\n$`,
      ),
    );
    const history = await runCli('rollout', ['history', 'mf-research', '--env', 'staging'], env);
    const lines = history.stdout.trimEnd().split('\n');
    const described = `override → http://127.0.0.1:3102/mf-manifest.json until \\S+ \\(${id}\\)`;
    expect(lines.slice(0, 4)).toEqual([
      expect.stringMatching(
        new RegExp(`  \\S+  override-revoke: ${described} → revoked \\(${id}\\) after 2 page views, 1 open$`),
      ),
      expect.stringMatching(
        new RegExp(
          `  visitor 10\\.1\\.2\\.3  override-exit: ${described} → exited \\(${id}\\) after 2 page views, 1 open \\(Exit in Chrome on Windows at 10\\.1\\.2\\.3\\)$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `  visitor 10\\.1\\.2\\.3  override-open: ${described} \\(opened in Chrome on Windows at 10\\.1\\.2\\.3\\)$`,
        ),
      ),
      expect.stringMatching(new RegExp(`  \\S+  override: ${described}$`)),
    ]);
  });

  it("refuses a public or tricked origin with the API's message, and accepts one DEV_OVERRIDE_ORIGINS lists", async () => {
    const env = { DEPLOY_API_URL: api.url, DEPLOY_TOKEN: api.adminToken };
    for (const url of [
      'http://8.8.8.8/mf-manifest.json',
      'http://127.0.0.1@evil.com/',
      'file:///etc/passwd',
    ]) {
      const refused = await runCli('rollout', ['override', 'mf-research', url], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Override URL refused:');
      expect(refused.stderr).toContain('Only loopback and private-network dev servers are accepted');
    }
    const listed = await runCli(
      'rollout',
      ['override', 'mf-research', 'https://dev.team.example/mf-manifest.json'],
      env,
    );
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
  });
});
