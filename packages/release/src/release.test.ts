import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AuditEntrySchema } from '@app/contracts';
import { isVersionId } from '@app/rollout';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { release } from './release';
import { lastLine, readJsonLines, runCli, type Sandbox, sandbox } from './test-support';

let s: Sandbox;
beforeEach(() => {
  s = sandbox();
});
afterEach(() => s.cleanup());

const releaseDist = (dist: string, extra: { force?: boolean; keep?: number } = {}) =>
  release({ remote: 'mf-research', dist, ...extra }, s.ctx);

describe('release', () => {
  it('derives the id from the package version and the content, whatever folder the build is in', async () => {
    const a = await releaseDist(s.dist({ at: 'a', content: 'one', version: '2.3.0' }));
    const b = await releaseDist(s.dist({ at: 'b', content: 'one', version: '2.3.0' }));
    const c = await releaseDist(s.dist({ at: 'c', content: 'two', version: '2.3.0' }));
    expect(a.info.version).toMatch(/^2\.3\.0-[0-9a-f]{10}$/);
    expect(isVersionId(a.info.version)).toBe(true);
    expect(b.info.version).toBe(a.info.version);
    expect(c.info.version).not.toBe(a.info.version);

    // Moving a file changes the id too (paths are part of the hash).
    const moved = s.dist({ at: 'd', content: 'one', version: '2.3.0' });
    fs.renameSync(path.join(moved, 'static', 'logo.bin'), path.join(moved, 'logo.bin'));
    expect((await releaseDist(moved)).info.version).not.toBe(a.info.version);
  });

  it('publishes the files and a release.json describing them', async () => {
    const dist = s.dist({ content: 'one' });
    const { info, alreadyReleased } = await releaseDist(dist);
    expect(alreadyReleased).toBe(false);
    const dir = path.join(s.paths.store, 'mf-research', info.version);
    for (const file of ['mf-manifest.json', 'remoteEntry.js', 'static/chunk.js', 'static/logo.bin']) {
      expect(fs.readFileSync(path.join(dir, file))).toEqual(fs.readFileSync(path.join(dist, file)));
    }
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'release.json'), 'utf8'));
    expect(json).toEqual({
      remote: 'mf-research',
      version: info.version,
      packageVersion: '1.0.0',
      createdAt: '2026-11-22T10:00:00.000Z',
      commit: null, // the sandbox root is not a git checkout
      dirty: null,
      exposes: [{ name: 'App', path: './App' }],
      shared: [
        { name: 'react', version: '19.3.1', requiredVersion: '19.3.1' },
        { name: 'react-dom', version: '19.3.1', requiredVersion: '19.3.1' },
        { name: '@app/session', version: '1.0.0', requiredVersion: '1.0.0' },
      ],
      files: 4,
      entryIntegrity: `sha384-${createHash('sha384')
        .update(fs.readFileSync(path.join(dist, 'remoteEntry.js')))
        .digest('base64')}`,
      bytes: fs.readdirSync(dist, { recursive: true }).reduce<number>((sum, f) => {
        const stat = fs.statSync(path.join(dist, String(f)));
        return stat.isFile() ? sum + stat.size : sum;
      }, 0),
    });
    // Nothing half-made is left beside the versions.
    expect(fs.readdirSync(path.join(s.paths.store, 'mf-research'))).toEqual([info.version]);
  });

  it('publishes readable to everyone, whatever modes the build folder had (a mktemp -d folder is 700)', async () => {
    const dist = s.dist({ content: 'private' });
    fs.chmodSync(dist, 0o700);
    fs.chmodSync(path.join(dist, 'static'), 0o700);
    fs.chmodSync(path.join(dist, 'static', 'logo.bin'), 0o600);
    const { info } = await releaseDist(dist);
    const dir = path.join(s.paths.store, 'mf-research', info.version);
    const mode = (p: string) => fs.statSync(p).mode & 0o777;
    expect(mode(dir)).toBe(0o755);
    expect(mode(path.join(dir, 'static'))).toBe(0o755);
    expect(mode(path.join(dir, 'static', 'logo.bin'))).toBe(0o644);
  });

  it('releasing the same content again reports it and never rewrites the version', async () => {
    const dist = s.dist({ content: 'one' });
    const first = await releaseDist(dist);
    const file = path.join(s.paths.store, 'mf-research', first.info.version, 'release.json');
    const before = fs.readFileSync(file, 'utf8');
    const mtime = fs.statSync(file).mtimeMs;
    s.tick(60_000);
    const again = await releaseDist(dist);
    expect(again.alreadyReleased).toBe(true);
    expect(again.info.version).toBe(first.info.version);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
  });

  it('refuses a missing build and a build of another remote', async () => {
    await expect(release({ remote: 'mf-research', build: false }, s.ctx)).rejects.toThrow(
      /no build of mf-research at .*mf-research\/dist \(mf-manifest.json is missing\)/,
    );
    const other = s.dist({ at: 'acct', remote: 'mf-account' });
    await expect(releaseDist(other)).rejects.toThrow(
      'is a build of mf_account, not of mf-research (mf_research)',
    );
  });
});

describe('compatibility gate at release', () => {
  const incompatible = [
    { name: 'react', version: '18.3.1', requiredVersion: '^18.3.1' },
    { name: 'react-dom', version: '18.3.1', requiredVersion: '^18.3.1' },
    { name: '@app/session', version: '1.4.0', requiredVersion: '1.4.0' },
  ];

  it('refuses a remote built against React 18 and an unknown contract, naming each conflict', async () => {
    const dist = s.dist({ shared: incompatible });
    const error = await releaseDist(dist).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const lines = (error as Error).message.split('\n');
    expect(lines).toContain('  - react: the remote requires major 18 (18.3.1), the shell provides 19.3.1');
    expect(lines).toContain(
      '  - react-dom: the remote requires major 18 (18.3.1), the shell provides 19.3.1',
    );
    expect(lines).toContain(
      '  - @app/session: the remote requires contract 1.4.0, the shell knows only 1.0.0',
    );
    expect(fs.existsSync(path.join(s.paths.store, 'mf-research'))).toBe(false);
    expect(fs.existsSync(s.paths.auditFile)).toBe(false);
  });

  it('--force releases anyway and audits it with the conflicts', async () => {
    const { info, forcedConflicts } = await releaseDist(s.dist({ shared: incompatible }), { force: true });
    expect(forcedConflicts).toHaveLength(3);
    const [entry] = readJsonLines(s.paths.auditFile);
    expect(v.parse(AuditEntrySchema, entry)).toEqual({
      at: '2026-11-22T10:00:00.000Z',
      actor: 'tester',
      environment: 'test',
      action: 'release',
      remote: 'mf-research',
      from: null,
      to: `released ${info.version}`,
      forced: true,
      reason: expect.stringContaining(
        'react: the remote requires major 18 (18.3.1), the shell provides 19.3.1;',
      ),
    });
    expect(entry?.reason).toContain('@app/session: the remote requires contract 1.4.0');
  });

  it('refuses when the live shell manifest is missing', async () => {
    fs.rmSync(s.env.SHELL_MANIFEST);
    await expect(releaseDist(s.dist())).rejects.toThrow(/the live shell's manifest .* does not exist/);
  });
});

describe('pnpm release (the CLI)', () => {
  it('prints the version id as the last line, and the same id again for the same build', async () => {
    s.dist({ at: 'build' });
    const first = await runCli('release', ['mf-research', '--dist', 'build'], s.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const id = lastLine(first.stdout);
    expect(isVersionId(id)).toBe(true);
    expect(first.stdout).toContain(`released mf-research ${id}: 4 files`);
    const second = await runCli('release', ['mf-research', '--dist', 'build'], s.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('is already released');
    expect(lastLine(second.stdout)).toBe(id);
  });

  it('answers an unknown remote, a missing dist and conflicts with one clear message and exit 1', async () => {
    const unknown = await runCli('release', ['mf-nope', '--no-build'], s.env);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe(
      'error: unknown remote "mf-nope"; valid remotes: mf-account, mf-research, mf-survey, mf-public-pages\n',
    );
    const missing = await runCli('release', ['mf-research', '--dist', 'nowhere'], s.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^error: no build of mf-research at .*nowhere \(mf-manifest.json is missing\)/,
    );
    expect(missing.stderr).not.toMatch(/\n\s+at /); // no stack trace

    s.dist({ at: 'old', shared: [{ name: 'react', version: '18.3.1', requiredVersion: '18.3.1' }] });
    const refused = await runCli('release', ['mf-research', '--dist', 'old'], s.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      '  - react: the remote requires major 18 (18.3.1), the shell provides 19.3.1\n',
    );
    const forced = await runCli('release', ['mf-research', '--dist', 'old', '--force'], s.env);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('released despite 1 compatibility conflict(s)');
    expect(readJsonLines(s.paths.auditFile)).toMatchObject([{ action: 'release', forced: true }]);
  }, 20_000);
});
