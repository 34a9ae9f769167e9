// The remotes' file servers of `pnpm start` as their own process (src/files-main.ts): what they serve, their
// refusals, and a clean stop on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-files-'));
fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>remote</title>');
fs.writeFileSync(path.join(dir, 'mf-manifest.json'), '{"name":"mf_account"}');
fs.writeFileSync(path.join(dir, 'remoteEntry.js.map'), '{}');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function start(fileServers: string): {
  child: ChildProcess;
  output: () => string;
  printed: (part: string) => Promise<void>;
  exit: Promise<number | null>;
} {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '..', 'src', 'files-main.ts')],
    {
      env: { ...process.env, FILE_SERVERS: fileServers, HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const waiters = new Set<() => void>();
  const heard = (chunk: Buffer) => {
    output += chunk;
    for (const wake of [...waiters]) wake();
  };
  child.stdout?.on('data', heard);
  child.stderr?.on('data', heard);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves once the process has printed `part` (the chunk that brings it wakes it); fails if it exits first. */
  const printed = (part: string) =>
    Promise.race([
      new Promise<void>((resolve) => {
        const check = () => {
          if (!output.includes(part)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
      exit.then((code) => {
        throw new Error(`the file servers exited (${code}) before "${part}":\n${output}`);
      }),
    ]);
  return { child, output: () => output, printed, exit };
}

describe('the remotes’ file servers', () => {
  it('serve a build with the edge’s headers, refuse source maps, and stop cleanly on SIGTERM', async () => {
    const run = start(JSON.stringify([{ name: 'mf-account', dir, port: 3975 }]));
    // Printed once the server listens (src/files-main.ts): the first request needs no retry.
    await run.printed('mf-account files on 3975');
    const manifest = await fetch('http://127.0.0.1:3975/mf-manifest.json');
    expect(manifest.status).toBe(200);
    expect(await manifest.json()).toEqual({ name: 'mf_account' });
    expect(manifest.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch('http://127.0.0.1:3975/remoteEntry.js.map')).status).toBe(404);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 30_000);

  it('refuse to start without a valid FILE_SERVERS, saying why', async () => {
    const run = start('{"not":"a list"}');
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain('FILE_SERVERS must be a JSON array of { name, dir, port }');
  }, 30_000);
});
