import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli';
import { CODE_SCHEMA_VERSION } from '../src/db/backup';
import { MIGRATIONS } from '../src/db/migrations';
import { postInput, startTestServer, type TestServer, tempDbPath } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: true });
  process.env.DB_PATH = s.ctx.config.dbPath;
});
afterAll(async () => {
  delete process.env.DB_PATH;
  await s.close();
});

/** Runs `pnpm admin ...` in-process: exit code, stdout lines, stderr lines. */
async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    return { code: await runCli(args), out: out.join('\n'), err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const count = (table: string) =>
  s.ctx.sql.sqlite!.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

describe('pnpm admin backup / restore', () => {
  const dir = path.dirname(tempDbPath());
  const file = path.join(dir, 'cli-backup.db');

  it('backup prints the file, its size and the rows per table; refuses to overwrite without --force', async () => {
    const posts = count('posts');
    const r = await cli('backup', file);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    const bytes = fs.statSync(file).size;
    expect(r.out).toContain(`to ${file} (`);
    expect(r.out).toContain(`${bytes} bytes), integrity_check ok`);
    expect(r.out).toMatch(new RegExp(`^  posts\\s+${posts} rows$`, 'm'));
    // One row per migration applied (the numbers may have a gap while branches are merged).
    expect(r.out).toMatch(new RegExp(`^ {2}schema_migrations\\s+${MIGRATIONS.length} rows$`, 'm'));

    const again = await cli('backup', file);
    expect(again.code).toBe(1);
    expect(again.err).toEqual([`Error: ${file} already exists; add --force to overwrite it`]);
    expect((await cli('backup', file, '--force')).code).toBe(0);
  });

  it('restore without --yes says what it would do and exits 2; with --yes restores', async () => {
    const posts = count('posts');
    const admin = await s.user(['admin'], 'boss');
    await s.post('/api/posts', postInput({ title: 'After the CLI backup' }), admin.token);
    expect(count('posts')).toBe(posts + 1);

    const dry = await cli('restore', file);
    expect(dry.code).toBe(2);
    expect(dry.out).toContain(`Would restore ${file} (`);
    expect(dry.out).toContain(`schema version ${CODE_SCHEMA_VERSION}) into`);
    expect(dry.out).toContain('Add --yes to restore.');
    expect(count('posts')).toBe(posts + 1);

    const real = await cli('restore', file, '--yes');
    expect(real.code).toBe(0);
    expect(real.out).toContain(`Restored ${file} (`);
    expect(real.out).toMatch(new RegExp(`^  posts\\s+${posts} rows$`, 'm'));
    expect(count('posts')).toBe(posts);
    expect(await s.ctx.accounts.resolveUser(admin.email)).toBeFalsy();
  });

  it('errors are one line on stderr, exit 1, no stack', async () => {
    const junk = path.join(dir, 'junk.db');
    fs.writeFileSync(junk, 'not a database at all\n'.repeat(100));
    const cases: [string[], string][] = [
      [['restore', path.join(dir, 'nope.db'), '--yes'], `Error: No such file: ${path.join(dir, 'nope.db')}`],
      [['restore', junk, '--yes'], `Error: ${junk} is not an SQLite database`],
      [['restore'], 'Error: restore needs <file>'],
      [['backup', file, '--forse'], "Error: Unknown option '--forse'"],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(r.err[0]).not.toContain('\n    at ');
    }
  });

  it('the usage lists both commands', async () => {
    const r = await cli('--help');
    expect(r.out).toContain('backup <file> [--force]');
    expect(r.out).toContain('restore <file> [--yes]');
  });
});
