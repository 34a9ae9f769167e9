// `pnpm build`: production builds of the shell and every remote (or only those named: `pnpm build mf-account`).
// `--missing` builds only apps whose dist is absent or older than their sources (used by `pnpm start`).
// Each app builds on its own; building one never rebuilds another.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { APPS, SHARED_SOURCES } from './apps.mjs';

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (
      entry === 'node_modules' ||
      entry === 'dist' ||
      entry.endsWith('.test.ts') ||
      entry.endsWith('.test.tsx')
    )
      continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

export function isStale(app) {
  const marker = path.join(app.dist, 'mf-manifest.json');
  if (!fs.existsSync(marker)) return true;
  // A build from before issue 45 says nothing of what its code is: the deploy API's gate cannot vouch for it.
  if (!fs.existsSync(path.join(app.dist, 'mf-compat.json'))) return true;
  const built = fs.statSync(marker).mtimeMs;
  const sources = [
    path.join(app.dir, 'src'),
    path.join(app.dir, 'public'),
    path.join(app.dir, 'webpack.config.mjs'),
    ...SHARED_SOURCES.map((p) => path.join(p, 'src')),
    ...SHARED_SOURCES.flatMap((p) =>
      ['webpack.mjs', 'shared.mjs', 'build-contract.mjs', 'apps.mjs', 'index.html'].map((f) =>
        path.join(p, f),
      ),
    ),
  ];
  return sources.some((source) => newestMtime(source) > built);
}

function run(app) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('pnpm', ['--silent', 'run', 'build'], { cwd: app.dir, stdio: 'inherit' });
    child.on('exit', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (code === 0) {
        console.log(`built ${app.name} in ${seconds} s`);
        resolve(Number(seconds));
      } else reject(new Error(`${app.name} build failed (exit ${code})`));
    });
  });
}

export async function build({ only = [], missing = false, concurrency = 2 } = {}) {
  let queue = APPS.filter((app) => only.length === 0 || only.includes(app.name));
  if (missing) queue = queue.filter(isStale);
  if (queue.length === 0) return;
  console.log(`building ${queue.map((a) => a.name).join(', ')}`);
  const workers = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    while (queue.length) await run(queue.shift());
  });
  await Promise.all(workers);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  build({ only: args.filter((a) => !a.startsWith('--')), missing: args.includes('--missing') }).catch(
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
