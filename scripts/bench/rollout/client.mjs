// The HTTP side of a simulated visitor of `pnpm bench:rollout` (scripts/bench-rollout.mjs): a page view of
// the edge (the HTML with its `page-plan` block, the visitor cookie it sets) and a health report to the API,
// the two requests a real shell makes (services/edge/src/visitor-plan.ts, shell/src/rollout/health.ts).
// node:http with a keep-alive agent rather than fetch: on a 2-core machine the load generator shares the CPU
// with the edge, the API and the gate, and undici's fetch costs it about twice as much per request.
import http from 'node:http';
import https from 'node:https';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * One request; resolves with the status, the headers, the body's size as received and the body as text (never
 * rejects on a status).
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string, timeoutMs?: number }} [o]
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, bytes: number, text: string }>}
 */
export function request(url, { method = 'GET', headers = {}, body, timeoutMs = 30_000 } = {}) {
  const u = new URL(url);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      u,
      {
        method,
        agent: agents[u.protocol],
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const buffer = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: buffer.length,
            text: buffer.toString(),
          });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}

const PLAN_OPEN = '<script type="application/json" id="page-plan">';

/** The page's plan block, parsed (services/edge/test/fixture.ts planOf), or null when the page has none. */
export function planOf(html) {
  const start = html.indexOf(PLAN_OPEN);
  if (start < 0) return null;
  const end = html.indexOf('</script>', start);
  return JSON.parse(html.slice(start + PLAN_OPEN.length, end));
}

/** `visitor=<value>` of a response's Set-Cookie, for the next request's Cookie header; null without one. */
export function visitorCookieOf(headers) {
  for (const line of headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    if (pair.startsWith('visitor=')) return pair;
  }
  return null;
}

/** The cohort key a visitor cookie carries (`anon:…`, the part before its signature). */
export function visitorKeyOf(cookie) {
  const value = decodeURIComponent(cookie.slice('visitor='.length));
  return value.slice(0, value.lastIndexOf('.'));
}

/**
 * One page view: GET the page (with the visitor's cookie, if any), its plan and ticket. The page is asked
 * for without compression: the bench measures the gate, not the transfer, and gzip would cost the edge CPU
 * the 2 cores need for more visitors. `address`: the visitor's client address (X-Forwarded-For), if any.
 * @returns {Promise<{ cookie: string, plan: any, ticket: string | null, apiBaseUrl: string }>}
 */
export async function pageView(url, cookie, address) {
  const headers = { 'accept-encoding': 'identity', accept: 'text/html' };
  if (cookie) headers.cookie = cookie;
  // The visitor's own address, as a proxy on this machine passes it on (the edge trusts loopback's).
  if (address) headers['x-forwarded-for'] = address;
  const response = await request(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  const plan = planOf(response.text);
  if (!plan) throw new Error(`GET ${url}: no page-plan block in the page (is the edge serving it?)`);
  const given = visitorCookieOf(response.headers);
  if (!cookie && !given) throw new Error(`GET ${url}: the edge set no visitor cookie on a first page view`);
  return {
    cookie: given ?? cookie,
    plan,
    ticket: plan.health?.ticket ?? null,
    apiBaseUrl: String(plan.config?.apiBaseUrl ?? '').replace(/\/$/, ''),
  };
}

/**
 * POSTs one report as the shell's beacon does (a text/plain body). Resolves with the status and, for a
 * refusal, the API's `error` text.
 * @returns {Promise<{ status: number, error: string | null }>}
 */
export async function sendReport(apiBaseUrl, body) {
  const response = await request(`${apiBaseUrl}/api/rollout/health`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  let error = null;
  if (response.status !== 204) {
    try {
      error = JSON.parse(response.text).error ?? response.text;
    } catch {
      error = response.text.slice(0, 200);
    }
  }
  return { status: response.status, error };
}
