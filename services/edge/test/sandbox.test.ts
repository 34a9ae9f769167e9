import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, launchPlan, probeIsolation } from '../src/render-sandbox/launch';

// The walls under the worker's JavaScript guard (issue 44, docs/decisions/0036-render-sandbox.md): a script
// started exactly as a render worker is (launchPlan), but with no guard at all, as if release code had got
// past it. What stops it here is the OS (namespaces, limits) and Node's permission model alone.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-sandbox-'));
const release = path.join(root, 'releases', 'mf-research', '1.0.0-aaaaaaaaaa');
const secretFile = path.join(root, 'deploy', 'local-deploy-token');
const target = path.join(root, 'written.txt');
// Beside the release, as the real worker is (Node 20 refuses to list a folder allowed together with a file in it).
const script = path.join(root, 'worker', 'unguarded.mjs');
const isolation = probeIsolation();
let listener: net.Server;
let port = 0;
let connections = 0;

const UNGUARDED = `
import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const seen = {};
const tryIt = async (name, run) => {
  try { seen[name] = String(await run()).slice(0, 100); } catch (error) { seen[name] = 'refused: ' + (error.code ?? error.message); }
};
await tryIt('env', () => JSON.stringify(process.env));
await tryIt('ownFolder', () => fs.readdirSync(process.cwd()).join(','));
await tryIt('secret', () => fs.readFileSync(${JSON.stringify(secretFile)}, 'utf8'));
await tryIt('write', () => fs.writeFileSync(${JSON.stringify(target)}, 'x'));
await tryIt('spawn', () => require('child_process').execSync('true'));
await tryIt('worker', () => new (require('worker_threads').Worker)('1', { eval: true }));
await tryIt('addon', () => process.dlopen({ exports: {} }, '/nonexistent.node'));
await tryIt('eval', () => eval('6 * 7'));
await tryIt('signal', () => process.kill(${process.pid}, 0) ?? 'signalled');
await tryIt('connect', () => new Promise((resolve, reject) => {
  const socket = require('net').connect(__PORT__, '127.0.0.1', () => { socket.end(); resolve('connected'); });
  socket.on('error', reject);
}));
process.stdout.write(JSON.stringify(seen));
`;

beforeAll(async () => {
  fs.mkdirSync(release, { recursive: true });
  fs.mkdirSync(path.dirname(secretFile), { recursive: true });
  fs.writeFileSync(secretFile, 'mfd_secret\n');
  listener = net.createServer((socket) => {
    connections += 1;
    socket.end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as net.AddressInfo).port;
  fs.writeFileSync(path.join(release, 'remoteEntry.js'), '/* the release */');
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, UNGUARDED.replace('__PORT__', String(port)));
});
afterAll(() => {
  listener.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Runs the unguarded script with the render worker's command line; what it saw. */
function runUnguarded(): Promise<Record<string, string>> {
  const plan = launchPlan({
    workerScript: script,
    rendererFile: path.join(release, 'server-render.mjs'),
    releaseFolder: release,
    limits: DEFAULT_LIMITS,
    isolation,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(plan.command, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out));
      } catch {
        reject(new Error(`no answer: ${out} ${err}`));
      }
    });
  });
}

describe("a render worker's process, without its JavaScript guard", () => {
  let seen: Record<string, string> = {};
  beforeAll(async () => {
    process.env.EDGE_SECRET = 'an-edge-secret-no-render-sees';
    seen = await runUnguarded();
    delete process.env.EDGE_SECRET;
  });

  it('holds no secret in its environment and reads only its own release folder', () => {
    expect(JSON.parse(seen.env ?? '')).toEqual({ NODE_ENV: 'production' });
    expect(seen.ownFolder).toBe('remoteEntry.js');
    expect(seen.secret).toBe('refused: ERR_ACCESS_DENIED');
  });

  it('writes nothing, starts no process, thread or addon, and runs no code from strings', () => {
    expect(seen.write).toBe('refused: ERR_ACCESS_DENIED');
    expect(fs.existsSync(target)).toBe(false);
    expect(seen.spawn).toBe('refused: ERR_ACCESS_DENIED');
    expect(seen.worker).toBe('refused: ERR_ACCESS_DENIED');
    expect(seen.addon).toMatch(/^refused: ERR_(DLOPEN_DISABLED|ACCESS_DENIED)$/);
    expect(seen.eval).toMatch(/^refused: /);
  });

  // Debian (every machine this product runs on) allows the unprivileged namespaces this needs.
  it('has no network and no other process to signal (its own namespaces)', () => {
    expect(isolation).toEqual({ namespaces: true, rlimits: true });
    expect(seen.connect).toMatch(/^refused: E(NETUNREACH|CONNREFUSED)$/);
    expect(connections).toBe(0);
    // The edge's PID is nobody in the worker's PID namespace.
    expect(seen.signal).toBe('refused: ESRCH');
  });
});
