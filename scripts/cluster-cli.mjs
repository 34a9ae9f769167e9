// `pnpm cluster <command>`: talks to the running `pnpm start:cluster` runner (scripts/cluster/cluster.mjs)
// through its control socket, <run dir>/control.sock (issue 32).
//   reload   a rolling restart of the API and edge instances, one at a time: each is taken out of nginx,
//            sent SIGTERM (it drains and exits), replaced, and put back once its replacement is ready.
//            Prints each step; exits 0 once every instance is back, 1 if one did not come back.
//   status   each supervised process: its pid (or down) and how often it was restarted.
// --run-dir <dir> (or CLUSTER_RUN_DIR) names the runner's folder when it is not .cluster/ in the repository.
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const command = args.find((a) => !a.startsWith('--'));
const at = args.indexOf('--run-dir');
const runDir = path.resolve(
  at >= 0 ? args[at + 1] : (process.env.CLUSTER_RUN_DIR ?? path.join(ROOT, '.cluster')),
);
if (!['reload', 'status'].includes(command) || (at >= 0 && !args[at + 1])) {
  console.error('usage: pnpm cluster <reload|status> [--run-dir <dir>]');
  process.exit(2);
}

const socket = path.join(runDir, 'control.sock');
const conn = net.connect(socket);
let output = '';
conn.setEncoding('utf8');
conn.on('connect', () => conn.write(`${command}\n`));
conn.on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
conn.on('error', (error) => {
  console.error(
    `no cluster runner answers on ${socket} (${error.code ?? error.message}): is \`pnpm start:cluster\` running?`,
  );
  process.exit(1);
});
conn.on('close', () => {
  const last = output.trim().split('\n').at(-1);
  process.exit(last === 'ok' ? 0 : 1);
});
