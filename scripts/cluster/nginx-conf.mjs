// Renders infra/nginx/nginx.conf.template for one cluster (issue 12, issue 30): where the builds and the
// release store are (the deployment manifest is the edges' own, from the API's feed), which API and edge instances to proxy to, and the headers of the files
// nginx serves itself (the edge's own COMMON_HEADERS, so both front doors agree). Pages are the edge's, with
// the CSP and page headers it computes per page: nothing here computes a page header. Each instance is
// listed twice in its upstream, the second time as a backup (issue 32; renderNginxConf says why).
import fs from 'node:fs';
import path from 'node:path';
import { COMMON_HEADERS } from '@app/edge';
import { ROOT } from '../apps.mjs';

export const NGINX_TEMPLATE = path.join(ROOT, 'infra', 'nginx', 'nginx.conf.template');
/** How long nginx leaves out an instance that failed twice (fail_timeout); a rolling reload waits it out. */
export const FAIL_TIMEOUT_S = 3;
/** How a request goes to the edge (included by the page locations and /_edge/). */
export const EDGE_PROXY_CONF = path.join(ROOT, 'infra', 'nginx', 'edge-proxy.conf');

const quote = (value) => `"${String(value).replace(/["\\]/g, '\\$&')}"`;
const headerLines = (headers, indent) =>
  Object.entries(headers)
    .map(([name, value]) => `${indent}add_header ${name} ${quote(value)} always;`)
    .join('\n');

/**
 * @param {object} o
 * @param {number} o.port            where nginx listens (127.0.0.1)
 * @param {string} o.runDir          nginx's pid, logs and temp files; www/remotes/<remote> links made here
 * @param {string} o.shellDir        the shell's dist folder
 * @param {Record<string,string>} o.remoteDirs  remote name -> its dist folder
 * @param {string} o.releaseStore    the release store (pnpm release)
 * @param {string} o.configJson      the shell's runtime config for this cluster
 * @param {number[]} o.apiPorts      the API instances on 127.0.0.1
 * @param {number[]} o.edgePorts     the edge instances on 127.0.0.1
 * @param {string} [o.mimeTypes]     nginx's mime.types
 */
export function renderNginxConf(o) {
  // Passive health: 2 failed attempts (refused, reset, timed out, or an answer proxy_next_upstream retries)
  // within 3 s leave an instance out for 3 s. The same instances again as `backup` (never marked failed):
  // nginx turns to them only when every instance is marked failed, such as when one dies within 3 s of
  // the other's return from a restart. Without them nginx would answer 502 "no live upstreams" for the rest
  // of those 3 s although an instance is up; with them it tries the instances anyway (hence
  // proxy_next_upstream_tries 3: the dead one, possibly its backup copy, then the live one).
  const servers = (ports) =>
    [
      ...ports.map((port) => `    server 127.0.0.1:${port} max_fails=2 fail_timeout=${FAIL_TIMEOUT_S}s;`),
      ...ports.map((port) => `    server 127.0.0.1:${port} backup max_fails=0;`),
    ].join('\n');
  const values = {
    LISTEN: `127.0.0.1:${o.port}`,
    RUN_DIR: o.runDir,
    SHELL_DIR: o.shellDir,
    RELEASE_STORE: o.releaseStore,
    CONFIG_JSON: o.configJson,
    MIME_TYPES: o.mimeTypes ?? '/etc/nginx/mime.types',
    API_SERVERS: servers(o.apiPorts),
    EDGE_SERVERS: servers(o.edgePorts),
    EDGE_PROXY: EDGE_PROXY_CONF,
    COMMON_HEADERS: headerLines(COMMON_HEADERS, '      '),
    COMMON_HEADERS_NESTED: headerLines(COMMON_HEADERS, '        '),
  };
  const text = fs.readFileSync(NGINX_TEMPLATE, 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (_, name) => {
    if (!(name in values)) throw new Error(`nginx.conf.template: no value for {{${name}}}`);
    return values[name];
  });
  fs.mkdirSync(path.join(o.runDir, 'www', 'remotes'), { recursive: true });
  // nginx's workers buffer request bodies here; started as root, they run as another user (nobody).
  for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    fs.mkdirSync(path.join(o.runDir, dir), { recursive: true });
    fs.chmodSync(path.join(o.runDir, dir), 0o777);
  }
  for (const [name, dir] of Object.entries(o.remoteDirs)) {
    const link = path.join(o.runDir, 'www', 'remotes', name);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(dir, link);
  }
  const file = path.join(o.runDir, 'nginx.conf');
  fs.writeFileSync(file, text);
  return { file };
}
