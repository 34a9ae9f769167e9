import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { deployCliEnv } from './server-env';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface DevAgainst {
  /** The override link `pnpm dev:against` printed. */
  link: string;
  /** Everything it printed so far. */
  output: () => string;
  /** Ctrl+C, as a developer ends it: resolves once it has exited (after revoking its link). */
  stop: () => Promise<number | null>;
}

/**
 * `pnpm dev:against <remote> --port <port>` (issue 47) against the suite's deploy API, as a developer runs it
 * on the machine that runs the product: resolves with the link once it is printed.
 */
export function devAgainst(remote: string, port: number, timeoutMs = 170_000): Promise<DevAgainst> {
  const env: Record<string, string | undefined> = { ...process.env, ...deployCliEnv(), LOG_LEVEL: 'silent' };
  // The CLI never opens a database: the runner's DB_PATH is not its.
  delete env.DB_PATH;
  delete env.DATABASE_URL;
  const child: ChildProcess = spawn('node', ['scripts/dev-against.mjs', remote, '--port', String(port)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new Error(`dev:against printed no link within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const link = /^(https?:\/\/\S+\?override=mfo_[A-Za-z0-9_-]{43})$/m.exec(output)?.[1];
      if (!link) return;
      clearTimeout(timer);
      resolve({
        link,
        output: () => output,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGINT');
          return exited;
        },
      });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`dev:against exited (${code}) before printing a link:\n${output}`));
    });
  });
}
