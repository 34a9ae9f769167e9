// Runs one checkout's cluster for the bench (topology.mjs starts it with the checkout as its working directory,
// under that checkout's tsx): `node --import tsx <this file> '<startCluster options as JSON>'`. It imports
// that checkout's scripts/cluster/cluster.mjs, calls startCluster(options), reports { origin, ... } to the
// bench over IPC, and stops the cluster on SIGTERM or SIGINT, or when the bench goes away (IPC disconnect).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const options = JSON.parse(process.argv[2] ?? '{}');
const { startCluster } = await import(
  pathToFileURL(path.join(process.cwd(), 'scripts', 'cluster', 'cluster.mjs')).href
);

let cluster = null;
let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  try {
    cluster?.stop();
  } finally {
    // Let the instances receive their SIGTERM before this process (their parent) is gone.
    setTimeout(() => process.exit(code), 500);
  }
}
process.on('SIGTERM', () => stopAll(0));
process.on('SIGINT', () => stopAll(0));
process.on('disconnect', () => stopAll(0));

try {
  cluster = await startCluster(options);
  if (stopping) cluster.stop();
  for (const child of cluster.children ?? []) {
    child.on('exit', (code, signal) => {
      if (!stopping && signal !== 'SIGTERM') {
        console.error(`bench cluster: a process stopped (exit ${code ?? signal}); stopping the rest`);
        stopAll(1);
      }
    });
  }
  process.send?.({
    ready: {
      origin: cluster.origin,
      apiPorts: cluster.apiPorts ?? null,
      edgePorts: cluster.edgePorts ?? null,
      database: cluster.database ?? null,
      nginxConf: cluster.nginxConf ?? null,
    },
  });
  console.log(`bench cluster ready on ${cluster.origin}`);
} catch (error) {
  console.error(error);
  process.send?.({ error: error instanceof Error ? error.message : String(error) });
  stopAll(1);
}
