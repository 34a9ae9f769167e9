// The API as a real child process (`node --import tsx src/main.ts`), for what only a process shows: signals,
// draining, the exit code, a database that goes away under it.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');

export interface ChildServer {
  child: ChildProcess;
  url: string;
  port: number;
  /** Every JSON line the server printed, parsed. */
  lines: Record<string, unknown>[];
  /** Resolves with the first line (already printed or still to come) `match` accepts. */
  waitForLine(
    match: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the API on a free port with `env` (DB_PATH or DATABASE_URL among it) and waits for "API listening":
 * the TypeScript through tsx, or with `bundle` that compiled file with plain node.
 */
export async function startChildServer(
  env: Record<string, string>,
  o: { bundle?: string } = {},
): Promise<ChildServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-child-'));
  const args = o.bundle ? [o.bundle] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      REQUIRES_ACTIVATION: 'false',
      RATE_LIMITS: 'off',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      RELEASE_STORE_DIR: path.join(dir, 'releases'),
      DEPLOY_DIR: path.join(dir, 'deploy'),
      DEPLOY_ENV: 'production',
      ...env,
    },
  });
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part));
      } catch {
        // not a log line
      }
    }
    for (const wake of waiters) wake();
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal });
    }),
  );
  const waitForLine: ChildServer['waitForLine'] = (match, timeoutMs = 20_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such line within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
      }, timeoutMs);
      function check() {
        const line = lines.find(match);
        if (line || child.exitCode !== null) {
          clearTimeout(timer);
          waiters.delete(check);
          if (line) resolve(line);
          else reject(new Error(`the server exited (${child.exitCode}): ${stderr.slice(-2000)}`));
        }
      }
      waiters.add(check);
      check();
    });
  const listening = await waitForLine((line) => line.msg === 'API listening', 30_000);
  const url = String(listening.url);
  return { child, url, port: Number(new URL(url).port), lines, waitForLine, exited };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request through `agent` (a kept-alive socket, or `false` for a new connection). */
export function request(
  url: string,
  o: { method?: string; agent?: http.Agent | false; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const data = o.body === undefined ? undefined : JSON.stringify(o.body);
    const req = http.request(
      url,
      {
        method: o.method ?? 'GET',
        agent: o.agent,
        headers: { ...(data ? { 'Content-Type': 'application/json' } : {}), ...o.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
