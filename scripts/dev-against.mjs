// `pnpm dev:against <remote> [--env production|staging] [--to <deploy API URL>] [--port N] [--hours N]
//  [--site <origin>]` (issue 47, docs/decisions/0042-dev-overrides.md): a team's remote from its webpack dev
// server, inside the running product in the developer's browser only. It starts the dev server on a
// loopback port (the remote's port + 100 unless --port), checks that the build keeps the production JSX
// runtime contract, asks the deploy API for an override link to it (`pnpm rollout override`: DEPLOY_TOKEN
// with --to, the local token otherwise) and prints the link. Ctrl+C revokes the link and stops the server.
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { APPS, ROOT } from './apps.mjs';
import { waitForHttp } from './wait-for.mjs';

const USAGE = `usage: pnpm dev:against <remote> [--env production|staging] [--to <deploy API URL>] [--port N]
       [--hours N] [--site <origin of the product, when it is not on localhost>]`;

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    env: { type: 'string' },
    to: { type: 'string' },
    port: { type: 'string' },
    hours: { type: 'string' },
    site: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || positionals.length !== 1) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
const app = APPS.find((a) => a.name === positionals[0] && a.exposes);
if (!app) {
  const remotes = APPS.filter((a) => a.exposes).map((a) => a.name);
  console.error(`dev:against: "${positionals[0]}" is not a remote; remotes: ${remotes.join(', ')}`);
  process.exit(1);
}
const port = Number(values.port ?? app.port + 100);
if (!Number.isInteger(port) || port < 1024 || port > 65535) {
  console.error(`dev:against: --port must be a port number from 1024 to 65535, got ${values.port}`);
  process.exit(1);
}
// Loopback only: the dev server serves unreleased source to whoever can reach it.
const origin = `http://127.0.0.1:${port}`;
const manifestUrl = `${origin}/mf-manifest.json`;
// The product's page opens the live-reload socket; webpack's dev server checks its Origin header.
const siteHost = values.site ? new URL(values.site).hostname : values.to ? new URL(values.to).hostname : null;

const rolloutArgs = (command, ...args) => [
  '--silent',
  'rollout',
  command,
  ...args,
  ...(values.env ? ['--env', values.env] : []),
  ...(values.to ? ['--to', values.to] : []),
];

const server = spawn(
  'pnpm',
  [
    'exec',
    'webpack',
    'serve',
    '--config',
    'webpack.config.mjs',
    '--mode',
    'development',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    // The product's CSP admits no eval: source maps as files, not webpack's eval-wrapped modules.
    '--devtool',
    'cheap-module-source-map',
    // The live-reload client runs in the product's page: it must dial the dev server, not the page's host.
    '--client-web-socket-url',
    `ws://127.0.0.1:${port}/ws`,
    ...(siteHost ? ['--allowed-hosts', siteHost, '--allowed-hosts', 'localhost'] : []),
  ],
  { cwd: app.dir, stdio: ['ignore', 'inherit', 'inherit'], detached: true },
);
let serverAlive = true;
server.on('exit', () => {
  serverAlive = false;
});

let overrideId = null;
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  if (overrideId) {
    const revoked = spawnSync('pnpm', rolloutArgs('revoke-override', overrideId), {
      cwd: ROOT,
      encoding: 'utf8',
    });
    process.stdout.write(revoked.stdout || '');
    if (revoked.status !== 0) {
      process.stderr.write(revoked.stderr || '');
      console.error(`dev:against: could not revoke override ${overrideId}: it ends when it expires`);
    }
  }
  // The dev server and its children (webpack's workers) are one process group, started by this script.
  if (serverAlive) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {}
  }
  process.exit(code);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

/**
 * The host's JSX contract (TOOLCHAIN.md, MF core #3588): a remote must call the JSX runtime the shell
 * shares (react/jsx-runtime, @emotion/react/jsx-runtime), never a development one the shell does not
 * provide: that would load a second React into a production host.
 */
async function checkJsxContract() {
  const manifest = await (await fetch(manifestUrl)).json();
  const shared = (manifest.shared ?? []).map((s) => s.name);
  const missing = ['react/jsx-runtime', '@emotion/react/jsx-runtime'].filter((n) => !shared.includes(n));
  const dev = shared.filter((n) => /jsx-dev-runtime/.test(n));
  if (missing.length || dev.length) {
    throw new Error(
      `the dev build breaks the host's JSX runtime contract (shared: ${shared.join(', ')}): it must share react/jsx-runtime and @emotion/react/jsx-runtime and no jsx-dev-runtime`,
    );
  }
}

try {
  await waitForHttp(manifestUrl, 180_000, () => serverAlive);
  await checkJsxContract();
  const made = spawnSync(
    'pnpm',
    rolloutArgs('override', app.name, manifestUrl, ...(values.hours ? ['--hours', values.hours] : [])),
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (made.status !== 0) {
    process.stderr.write(made.stderr || made.stdout || '');
    throw new Error('no override link was made');
  }
  const lines = made.stdout.trimEnd().split('\n');
  overrideId = /^override (\S+): /.exec(lines[0] ?? '')?.[1] ?? null;
  console.log(`\n${lines.slice(0, -1).join('\n')}`);
  console.log(`\nOpen this link in your browser (only that browser gets ${app.name} from ${origin}):`);
  console.log(lines.at(-1));
  console.log(
    '\nSaving a file rebuilds and reloads the page. Ctrl+C stops the dev server and revokes the link.',
  );
} catch (error) {
  console.error(`dev:against: ${error instanceof Error ? error.message : error}`);
  stop(1);
}
