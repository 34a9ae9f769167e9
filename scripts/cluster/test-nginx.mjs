// The nginx tests' one way to run the cluster's real nginx config (nginx-conf.mjs) in front of stand-ins for
// the API and the edge: nginx-retry, nginx-log, nginx-internal and nginx-keepalive.test.mjs.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { requirePrerequisites } from '../prerequisites.mjs';
import { waitForHttp } from '../wait-for.mjs';
import { renderNginxConf } from './nginx-conf.mjs';

/**
 * Renders the cluster's nginx config into `runDir` (an empty shell folder, `{}` as config.json, no remotes,
 * under `work`), checks it with `nginx -t` and starts nginx on `port`, resolved once it answers. `test`
 * names the test file in the message when nginx is missing.
 */
export async function startTestNginx({ test, work, runDir, port, apiPorts, edgePorts }) {
  const binary = requirePrerequisites(['nginx'], test).nginx;
  const shellDir = path.join(work, 'shell');
  fs.mkdirSync(shellDir, { recursive: true });
  const configJson = path.join(work, 'config.json');
  fs.writeFileSync(configJson, '{}');
  const { file } = renderNginxConf({
    port,
    runDir,
    shellDir,
    remoteDirs: {},
    releaseStore: path.join(work, 'releases'),
    configJson,
    apiPorts,
    edgePorts,
  });
  const check = spawnSync(binary, ['-t', '-q', '-p', runDir, '-c', file], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
  const nginx = spawn(binary, ['-p', runDir, '-c', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForHttp(`http://127.0.0.1:${port}/config.json`, 10_000, () => nginx.exitCode === null);
  return nginx;
}

/** SIGTERM to a started nginx, resolved when it has exited (at once when it is not running). */
export function stopTestNginx(nginx) {
  return new Promise((resolve) => {
    if (!nginx || nginx.exitCode !== null || nginx.signalCode) return resolve();
    nginx.once('exit', resolve);
    nginx.kill('SIGTERM');
  });
}
