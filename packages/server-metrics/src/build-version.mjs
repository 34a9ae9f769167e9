// The services' build.mjs give their bundle the source revision it was built from (esbuild's `define`):
// /metrics reports it as `<service>_build_info{version}` (server-metrics.ts, BUILD_VERSION). Plain
// JavaScript: build scripts run on plain `node`.
import { execFileSync } from 'node:child_process';

/**
 * The revision as git names it (`-dirty`: built with uncommitted changes), or 'unknown' outside a checkout
 * (a copied tree): esbuild's `define` for it.
 * @param {string} dir a folder of the checkout
 * @returns {{ __BUILD_VERSION__: string }}
 */
export function buildVersionDefine(dir) {
  let revision = 'unknown';
  try {
    revision = execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // not a checkout, or no git: 'unknown'
  }
  return { __BUILD_VERSION__: JSON.stringify(revision) };
}
