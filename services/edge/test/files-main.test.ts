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
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function until(url: string, ms = 15_000): Promise<Response> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('the remotes’ file servers', () => {
  it('serve a build with the edge’s headers, refuse source maps, and stop cleanly on SIGTERM', async () => {
    const run = start(JSON.stringify([{ name: 'mf-account', dir, port: 3975 }]));
    const manifest = await until('http://127.0.0.1:3975/mf-manifest.json');
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
