import { execFileSync } from 'node:child_process';

/** The commit a release was made from, and whether the tree had changes; nulls outside a git checkout. */
export function gitState(cwd: string): { commit: string | null; dirty: boolean | null } {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
  try {
    const commit = git('rev-parse', 'HEAD').trim();
    let dirty: boolean | null = null;
    try {
      dirty = git('status', '--porcelain').trim() !== '';
    } catch {}
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}
