// One cold load of a route in Chromium through CDP (puppeteer-core): requests, bytes and serial depth
// (scripts/bench-web.mjs documents each figure).
import http from 'node:http';
import https from 'node:https';
import { APPS } from '../apps.mjs';

export const LATENCY_MS = 250;

const PORT_OWNER = new Map(APPS.map((app) => [String(app.port), app.name]));

/**
 * Where the API is: its own origin (`pnpm start`: :4000), or paths under /api/ of the page's origin (the
 * cluster: nginx proxies /api to the instances, so config.json's apiBaseUrl is the page's origin).
 */
export function apiMatcher(apiBaseUrl, pageOrigin) {
  const apiOrigin = apiBaseUrl ? new URL(apiBaseUrl).origin : null;
  return (url) => {
    const u = new URL(url);
    if (u.origin !== apiOrigin) return false;
    return apiOrigin !== pageOrigin || u.pathname.startsWith('/api/');
  };
}

/**
 * Which app a URL's bytes belong to: the API, a remote (release path, /remotes/ path or own port), the shell
 * (the page's origin or its port), else its origin.
 */
function ownerOf(url, isApi, base) {
  if (isApi(url)) return 'api';
  const u = new URL(url);
  const byPath = u.pathname.match(/^\/(?:releases|remotes)\/([^/]+)\//);
  if (byPath) return byPath[1];
  if (u.origin === base) return 'shell';
  return PORT_OWNER.get(u.port || (u.protocol === 'https:' ? '443' : '80')) ?? u.origin;
}

function kindOf(record) {
  const mime = record.mimeType ?? '';
  if (record.type === 'Script' || /javascript|ecmascript/.test(mime)) return 'js';
  if (record.type === 'Stylesheet' || mime === 'text/css') return 'css';
  if (/json/.test(mime)) return 'json';
  if (record.type === 'Document') return 'html';
  return 'other';
}

const refetchCache = new Map();
/** Body bytes as sent for one Accept-Encoding (not decompressed), and the encoding the server chose. */
function wireSize(url, encoding) {
  const key = `${encoding} ${url}`;
  if (!refetchCache.has(key)) {
    const client = url.startsWith('https:') ? https : http;
    refetchCache.set(
      key,
      new Promise((resolve, reject) => {
        const req = client.get(url, { headers: { 'Accept-Encoding': encoding } }, (res) => {
          let bytes = 0;
          res.on('data', (chunk) => {
            bytes += chunk.length;
          });
          res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' }));
          res.on('error', reject);
        });
        req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${url}`)));
        req.on('error', reject);
      }),
    );
  }
  return refetchCache.get(key);
}

export function shortUrl(url, base) {
  const u = new URL(url);
  const release = u.pathname.match(/^\/releases\/([^/]+)\/[^/]+\/(.*)$/);
  if (release) return `${release[1]}/${release[2]}`;
  return `${u.origin === base ? '' : `:${u.port}`}${u.pathname}${u.search}`;
}

/**
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 * @param {string | null} remote  the route's remote package (mf-…), whose first request and JS file count
 * @param {(url: string) => boolean} isApi
 * @param {string} base  the page's origin (for short URLs)
 */
export async function coldLoad(browser, url, remote, isApi, base) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  const records = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (/^(data|blob):/.test(e.request.url)) return;
    // A redirect reuses the request id: the first leg ends where the next one starts.
    const previous = records.get(e.requestId);
    if (previous && e.redirectResponse) {
      records.set(`${e.requestId}#${previous.start}`, {
        ...previous,
        end: e.timestamp,
        status: e.redirectResponse.status,
      });
    }
    records.set(e.requestId, {
      url: e.request.url,
      method: e.request.method,
      type: e.type,
      start: e.timestamp,
      initiator: e.initiator?.type,
    });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = records.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    r.mimeType = e.response.mimeType;
    r.type = e.type;
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    r.contentEncoding = headers['content-encoding'] ?? 'identity';
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = records.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, encodedDataLength: e.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = records.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, failed: e.errorText });
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 });
  const loadMs = Date.now() - started;
  await context.close();

  const list = [...records.values()].sort((a, b) => a.start - b.start);
  // The page's HTML: the last document of the first navigation (after any redirect).
  const html = list.filter(
    (r) => r.type === 'Document' && r.status !== undefined && (r.status < 300 || r.status >= 400),
  )[0];
  if (!html?.end) throw new Error(`${url}: no HTML response`);

  // Depth: HTML 0; otherwise 1 + the deepest request that had finished before this one started.
  for (const r of list) {
    if (r === html) {
      r.depth = 0;
      continue;
    }
    if (r.start < html.start) continue; // a redirect leg before the page
    let parent = html;
    for (const q of list) {
      if (q === r || q.depth === undefined || q.end === undefined || q.end > r.start) continue;
      if (q.depth > parent.depth || (q.depth === parent.depth && q.end > parent.end)) parent = q;
    }
    r.depth = parent.depth + 1;
    r.parent = parent;
  }
  const ofRemote = (r) => remote && r.depth !== undefined && ownerOf(r.url, isApi, base) === remote;
  const firstRemote = list.find(ofRemote);
  const firstRemoteJs = list.find((r) => ofRemote(r) && kindOf(r) === 'js');
  const chainOf = (r) => {
    const chain = [];
    for (let at = r; at; at = at.parent) chain.unshift(at);
    return chain.map((x) => shortUrl(x.url, base));
  };

  // Bytes: each front-end JS/CSS/JSON GET again, gzip then br.
  const byOrigin = {};
  const byApp = {};
  const files = [];
  const bucket = (holder, key, empty) => {
    if (!holder[key]) holder[key] = empty();
    return holder[key];
  };
  const sizes = () => ({ gzip: 0, br: 0, files: 0 });
  const totals = { js: sizes(), css: sizes(), json: sizes() };
  for (const r of list) {
    const origin = new URL(r.url).origin;
    const o = bucket(byOrigin, origin, () => ({ requests: 0, cdpBytes: 0 }));
    o.requests++;
    o.cdpBytes += r.encodedDataLength ?? 0;
    const kind = kindOf(r);
    if (!['js', 'css', 'json'].includes(kind) || r.method !== 'GET' || r.status !== 200 || isApi(r.url))
      continue;
    const [gz, br] = [await wireSize(r.url, 'gzip'), await wireSize(r.url, 'br')];
    const owner = ownerOf(r.url, isApi, base);
    for (const sum of [
      totals[kind],
      bucket(o, kind, sizes),
      bucket(
        bucket(byApp, owner, () => ({})),
        kind,
        sizes,
      ),
    ]) {
      sum.gzip += gz.bytes;
      sum.br += br.bytes;
      sum.files++;
    }
    files.push({
      url: r.url,
      kind,
      owner,
      gzip: gz.bytes,
      br: br.bytes,
      brEncoding: br.encoding,
      gzipEncoding: gz.encoding,
      depth: r.depth,
    });
  }
  return {
    url,
    remote,
    loadMs,
    requests: list.length,
    byOrigin,
    byApp,
    totals,
    depth: firstRemote ? firstRemote.depth - 1 : null,
    depthJs: firstRemoteJs ? firstRemoteJs.depth - 1 : null,
    chain: firstRemoteJs ? chainOf(firstRemoteJs) : firstRemote ? chainOf(firstRemote) : [],
    files,
    requestsList: list.map((r) => ({
      url: r.url,
      method: r.method,
      type: r.type,
      status: r.status ?? null,
      startMs: Math.round((r.start - html.start) * 1000),
      endMs: r.end === undefined ? null : Math.round((r.end - html.start) * 1000),
      depth: r.depth ?? null,
      encoding: r.contentEncoding ?? null,
      encodedDataLength: r.encodedDataLength ?? null,
      failed: r.failed,
    })),
  };
}
