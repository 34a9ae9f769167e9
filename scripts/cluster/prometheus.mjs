// Debian's Prometheus for the cluster (issue 48), off unless asked for (`pnpm start:cluster --prometheus`,
// CLUSTER_PROMETHEUS=1, startCluster's `prometheus` option). It scrapes every API and edge instance's
// /metrics directly on its own port (nginx never passes /metrics on: docs/operations.md), with a config
// written into the cluster's run folder and a data folder of its own: never the Debian service's
// /etc/prometheus/prometheus.yml or /var/lib/prometheus, which may not exist (or be another user's).
// cluster.mjs runs it under the supervisor like every other process: one that dies is started again, its
// data kept. The cluster has no remote file servers (nginx serves the remotes' files from disk), so there
// is nothing else to scrape.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitForHttp } from '../wait-for.mjs';
import { hasExited } from './supervisor.mjs';

export const PROMETHEUS_DEFAULTS = {
  port: 9090,
  // Short enough that a dashboard over the last minutes has points; a test asks for 1 s.
  intervalS: 5,
};

/**
 * prometheus.yml for the cluster: one job per service (`job="api"`, `job="edge"`), one target per instance
 * (Prometheus labels its series `instance="127.0.0.1:<port>"`); each edge port is one environment's
 * registry (the cluster's edges all serve DEPLOY_ENV). Written as JSON, which is YAML.
 * @param {{ apiPorts: number[], edgePorts: number[], intervalS?: number }} o
 */
export function renderPrometheusConfig({ apiPorts, edgePorts, intervalS = PROMETHEUS_DEFAULTS.intervalS }) {
  const every = `${intervalS}s`;
  const job = (name, ports) => ({
    job_name: name,
    metrics_path: '/metrics',
    static_configs: [{ targets: ports.map((port) => `127.0.0.1:${port}`), labels: { service: name } }],
  });
  const config = {
    // A scrape may take as long as the interval: an API scrape waits at most 1 s for its database gauges.
    global: { scrape_interval: every, scrape_timeout: every, evaluation_interval: every },
    scrape_configs: [job('api', apiPorts), job('edge', edgePorts)],
  };
  return `# Written by scripts/cluster/prometheus.mjs for this cluster; rewritten at each start.\n${JSON.stringify(config, null, 2)}\n`;
}

/**
 * Writes the config and returns the supervisor's `launch` for Prometheus: resolves with the process once
 * /-/ready answers. Listens on 127.0.0.1 only: what it holds is for the operator of this machine.
 * @param {object} o
 * @param {string} o.program   the prometheus binary (scripts/prerequisites.mjs found it)
 * @param {number} o.port
 * @param {string} o.runDir    the cluster's run folder: prometheus.yml goes there
 * @param {string} [o.dataDir] its TSDB (default <runDir>/prometheus-data, kept between runs)
 * @param {number[]} o.apiPorts
 * @param {number[]} o.edgePorts
 * @param {number} [o.intervalS]
 * @param {boolean} [o.quiet]  no log lines (its warnings go to stderr otherwise)
 */
export function prometheusLauncher(o) {
  const configFile = path.join(o.runDir, 'prometheus.yml');
  const dataDir = path.resolve(o.dataDir ?? path.join(o.runDir, 'prometheus-data'));
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(configFile, renderPrometheusConfig(o));
  const url = `http://127.0.0.1:${o.port}`;
  const launch = async () => {
    const child = spawn(
      o.program,
      [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${dataDir}`,
        `--web.listen-address=127.0.0.1:${o.port}`,
        // A development cluster's history: a few days is plenty, and bounds the folder.
        '--storage.tsdb.retention.time=3d',
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', o.quiet ? 'ignore' : 'inherit'] },
    );
    try {
      await waitForHttp(`${url}/-/ready`, 30_000, () => !hasExited(child));
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    return child;
  };
  return { url, configFile, dataDir, launch };
}
