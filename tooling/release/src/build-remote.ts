import { spawn } from 'node:child_process';
import path from 'node:path';
import type { RemotePackage } from '@app/rollout';
import { RolloutError } from './errors';

/**
 * Builds one remote with the workspace's build script. Its output goes to stderr, so stdout stays ours
 * (its last line is the version id, for scripts: `VERSION=$(pnpm release mf-research | tail -n 1)`).
 */
export function buildRemote(root: string, remote: RemotePackage): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'build.mjs'), remote], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    });
    child.on('error', (error) =>
      reject(new RolloutError(`could not start the build of ${remote}: ${error.message}`)),
    );
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new RolloutError(
            `the build of ${remote} failed (${signal ?? `exit ${code}`}); nothing was released`,
          ),
        );
    });
  });
}
