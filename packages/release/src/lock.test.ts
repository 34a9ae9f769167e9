import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { readManifestFile } from '@app/rollout/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollback, setPercent, startCanary } from './commands';
import { acquireLock } from './lock';
import { release } from './release';
import { readJsonLines, runCli, type Sandbox, sandbox } from './test-support';

let s: Sandbox;
let sleeper: ChildProcess | null = null;
let stable: string;
beforeEach(async () => {
  s = sandbox();
  const a = await release({ remote: 'mf-research', dist: s.dist({ at: 'a', content: 'a' }) }, s.ctx);
  const b = await release({ remote: 'mf-research', dist: s.dist({ at: 'b', content: 'b' }) }, s.ctx);
  stable = a.info.version;
  rollback(s.ctx, { remote: 'mf-research', to: stable });
  startCanary(s.ctx, { remote: 'mf-research', version: b.info.version, percent: 1 });
});
afterEach(() => {
  sleeper?.kill();
  sleeper = null;
  s.cleanup();
});

/** A live process that is not this one, to hold the lock. */
function liveProcess(): number {
  sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  return sleeper.pid as number;
}

const holdLock = (pid: number, at = '2026-11-22T10:02:11.000Z') =>
  fs.writeFileSync(s.paths.lockFile, JSON.stringify({ pid, at, token: 'someone-else' }));

describe('the environment lock', () => {
  it('a live holder makes the command fail with who holds it; the manifest and audit stay as they were', () => {
    const pid = liveProcess();
    holdLock(pid);
    const manifest = fs.readFileSync(s.paths.manifestFile, 'utf8');
    const audit = fs.readFileSync(s.paths.auditFile, 'utf8');
    const since = new Date('2026-11-22T10:02:11.000Z').toTimeString().slice(0, 8);
    expect(() => setPercent(s.ctx, { remote: 'mf-research', percent: 20 })).toThrow(
      `another rollout command is changing the "test" deployment (pid ${pid}, since ${since}); try again when it has finished`,
    );
    expect(fs.readFileSync(s.paths.manifestFile, 'utf8')).toBe(manifest);
    expect(fs.readFileSync(s.paths.auditFile, 'utf8')).toBe(audit);
    expect(fs.existsSync(s.paths.lockFile)).toBe(true); // someone else's lock is never removed
  });

  it('a lock left by a process that is gone is stale: taken over, and released afterwards', async () => {
    const pid = liveProcess();
    const exited = new Promise((resolve) => sleeper?.on('exit', resolve));
    sleeper?.kill();
    await exited;
    holdLock(pid);
    setPercent(s.ctx, { remote: 'mf-research', percent: 20 });
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary?.percent).toBe(20);
    expect(fs.existsSync(s.paths.lockFile)).toBe(false);
  });

  it('is released when the change refuses, and nothing is left behind', () => {
    // Refused inside the change, under the lock.
    expect(() => startCanary(s.ctx, { remote: 'mf-research', version: stable, percent: 1 })).toThrow(
      'already the stable',
    );
    expect(fs.readdirSync(s.paths.deployDir).sort()).toEqual(['test.audit.jsonl', 'test.json']);
    const unlock = acquireLock(s.paths.lockFile, 'test');
    expect(() => acquireLock(s.paths.lockFile, 'test')).toThrow(`(pid ${process.pid}, since`);
    unlock();
    expect(fs.existsSync(s.paths.lockFile)).toBe(false);
  });

  it('through the CLI: exit 1 with the message, manifest unchanged', async () => {
    const pid = liveProcess();
    holdLock(pid);
    const before = fs.readFileSync(s.paths.manifestFile, 'utf8');
    const result = await runCli('rollout', ['set', 'mf-research', '--percent', '30'], s.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: another rollout command is changing the "test" deployment \\(pid ${pid}, since \\d\\d:\\d\\d:\\d\\d\\); try again when it has finished\\n$`,
      ),
    );
    expect(fs.readFileSync(s.paths.manifestFile, 'utf8')).toBe(before);
  });

  it('6 CLI processes at once: each either wrote once or failed with the lock message; the manifest is valid', async () => {
    const before = readManifestFile(s.paths.manifestFile);
    const auditLines = readJsonLines(s.paths.auditFile).length;
    const percents = [11, 22, 33, 44, 55, 66];
    const results = await Promise.all(
      percents.map((p) => runCli('rollout', ['set', 'mf-research', '--percent', String(p)], s.env)),
    );
    const ok = results.filter((r) => r.code === 0);
    for (const failed of results.filter((r) => r.code !== 0)) {
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /^error: another rollout command is changing the "test" deployment \(pid \d+, since [\d:]+\); try again when it has finished\n$/,
      );
    }
    expect(ok.length).toBeGreaterThan(0);
    const after = readManifestFile(s.paths.manifestFile); // parses and validates
    expect(after?.revision).toBe((before?.revision ?? 0) + ok.length);
    const audit = readJsonLines(s.paths.auditFile);
    expect(audit).toHaveLength(auditLines + ok.length);
    // The manifest holds the last successful write's percent, which the last audit line records.
    expect(audit.at(-1)?.to).toContain(`at ${after?.remotes['mf-research']?.canary?.percent} %`);
    expect(fs.existsSync(s.paths.lockFile)).toBe(false);
    expect(fs.readdirSync(s.paths.deployDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 30_000);
});
