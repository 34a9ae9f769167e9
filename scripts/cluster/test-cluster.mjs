// What the tests that start a whole cluster (cluster, prometheus and server-gate.test.mjs) share.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh work folder for one test's cluster, its release store, deployment and SQLite file pointed at it
 * through the environment (rolloutPaths() and the API read these: call it before cluster.mjs is loaded).
 */
export function clusterWorkDir(prefix) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // nginx's workers (another user when started as root) read the release store and the config in here.
  fs.chmodSync(work, 0o755);
  process.env.RELEASE_STORE_DIR = path.join(work, 'releases');
  process.env.DEPLOY_DIR = path.join(work, 'deploy');
  process.env.DB_PATH = path.join(work, 'cluster.db');
  return work;
}

/**
 * What startCluster is given by every test that starts one: its ports, a run folder in `work`, no output of
 * its own, a fresh database, the supervisor's lines to `log`; `more` adds the test's own (database, env, …).
 */
export function testClusterOptions({ port, apiPorts, edgePorts, work, log }, more = {}) {
  return {
    port,
    apiPorts,
    edgePorts,
    runDir: path.join(work, 'run'),
    quiet: true,
    freshDatabase: true,
    log,
    ...more,
  };
}

/** Resolves once every edge on `ports` serves deployment `revision` (their feed follows it within a second). */
export async function edgesAt(ports, revision, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (const port of ports) {
    const status = async () => (await fetch(`http://127.0.0.1:${port}/_edge/status`)).json();
    while (!((await status()).feed?.revision >= revision)) {
      assert.ok(Date.now() < deadline, `edge ${port} did not get revision ${revision}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
