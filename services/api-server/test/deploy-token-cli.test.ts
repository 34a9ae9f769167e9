import { DEPLOY_PATHS, DEPLOY_TOKEN_PATTERN } from '@app/contracts/deploy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli';
import { startDeployServer } from './deploy-fixtures';
import type { TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startDeployServer();
  // The CLI opens the database the way the server does: DATABASE_URL, else DB_PATH.
  process.env.DB_PATH = s.ctx.config.dbPath;
  if (s.ctx.config.databaseUrl) process.env.DATABASE_URL = s.ctx.config.databaseUrl;
});
afterAll(async () => {
  delete process.env.DB_PATH;
  delete process.env.DATABASE_URL;
  await s.close();
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    const code = await runCli(args);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('pnpm admin deploy-token', () => {
  it('creates a token, printed once, that the API accepts with its scope', async () => {
    const made = await cli(
      'deploy-token',
      'create',
      '--name',
      'research-ci',
      '--remote',
      'mf-research',
      '--env',
      'staging,production',
    );
    expect(made.code).toBe(0);
    const token = made.out.split('\n').find((line) => DEPLOY_TOKEN_PATTERN.test(line))!;
    expect(token).toBeTruthy();
    expect(made.out).toContain('it will not be shown again');
    const self = await s.get(DEPLOY_PATHS.token, token);
    expect(self.body).toEqual({
      name: 'research-ci',
      admin: false,
      remotes: ['mf-research'],
      environments: ['staging', 'production'],
    });
    const listed = await cli('deploy-token', 'list');
    expect(listed.out).toContain('research-ci');
    expect(listed.out).not.toContain(token);
    expect(listed.out).toMatch(/research-ci.*last used 20\d\d-/);
  });

  it('says clearly what is wrong: a duplicate name, an unknown remote or environment, no scope', async () => {
    await cli('deploy-token', 'create', '--name', 'dup', '--admin');
    const dup = await cli('deploy-token', 'create', '--name', 'dup', '--admin');
    expect(dup).toMatchObject({ code: 1, err: 'Error: A deploy token named "dup" exists already' });
    const remote = await cli(
      'deploy-token',
      'create',
      '--name',
      'x',
      '--remote',
      'mf-nothing',
      '--env',
      'staging',
    );
    expect(remote.code).toBe(1);
    expect(remote.err).toContain('Unknown remote "mf-nothing" (known: mf-account, mf-research');
    const env = await cli('deploy-token', 'create', '--name', 'x', '--remote', 'mf-research', '--env', 'qa');
    expect(env.code).toBe(1);
    expect(env.err).toContain('Unknown environment "qa" (known: staging, production');
    const none = await cli('deploy-token', 'create', '--name', 'x');
    expect(none.code).toBe(1);
    expect(none.err).toContain('--admin');
  });

  it('revokes: the token is refused from its next call on', async () => {
    const made = await cli('deploy-token', 'create', '--name', 'old-ci', '--admin', '--env', 'staging');
    const token = made.out.split('\n').find((line) => DEPLOY_TOKEN_PATTERN.test(line))!;
    expect((await s.get(DEPLOY_PATHS.token, token)).body.environments).toEqual(['staging']);
    expect((await cli('deploy-token', 'revoke', '--name', 'old-ci')).code).toBe(0);
    expect((await s.get(DEPLOY_PATHS.token, token)).status).toBe(401);
    expect((await cli('deploy-token', 'list')).out).toMatch(/old-ci.*REVOKED/);
    const unknown = await cli('deploy-token', 'revoke', '--name', 'nobody');
    expect(unknown).toMatchObject({ code: 1, err: 'Error: There is no deploy token named "nobody"' });
  });
});
