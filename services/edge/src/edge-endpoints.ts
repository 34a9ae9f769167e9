// The edge's own small API under /_edge/ (docs/decisions/0026-edge.md):
//   POST /_edge/identity      a member signed in: their cohort key becomes user:<id> (the same versions on
//                             every device). The edge asks the API who the Bearer token belongs to.
//   POST /_edge/exit-preview  Exit preview: the preview cookie is cleared.
//   POST /_edge/exit-override Exit a dev override (issue 47): the override cookie is cleared, and the Exit
//                             of a link that still checks out is reported for the deploy audit (override-use.ts).
//   GET  /_edge/status        for operators, on the internal network only (@app/client-address's
//                             internal-request, the rule of /metrics too; 404 to anyone else): the
//                             manifest's revision, the deployment feed (its revision, last contact with
//                             the API, its last error), the config's state, the render
//                             sandbox (its isolation, its workers) and the degraded first screens
//                             (degraded.ts, a bounded list, most recent first).
//   GET  /_edge/live          liveness: the process answers (nothing is read).
//   GET  /_edge/ready         readiness: the shell's build is readable, the instance is not draining and
//                             (with a feed) the API's first manifest has arrived; 503 with Retry-After
//                             otherwise (docs/decisions/0028-process-lifecycle.md).
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { TrustedProxies } from '@app/client-address';
import { isInternalRequest } from '@app/client-address/internal-request';
import { API_PATHS } from '@app/contracts';
import type { Lifecycle } from '@app/http-lifecycle';
import type { DegradedLog } from './degraded';
import { type DeploymentState, edgeApiBase } from './deployment-state';
import { clearOverrideCookie, decideOverride } from './override-cookie';
import { type OverrideUseReporter, overrideVisitor } from './override-use';
import { clearPreviewCookie } from './preview-cookie';
import type { RenderPool } from './render-sandbox/pool';
import type { RequestScheme } from './request-origin';
import { userKey, visitorCookie } from './visitor-cookie';

export const EDGE_PREFIX = '/_edge/';
/** Every path the edge answers itself, in one place (nginx's and the runner's checks name them too). */
export const EDGE_PATHS = {
  status: '/_edge/status',
  identity: '/_edge/identity',
  exitPreview: '/_edge/exit-preview',
  exitOverride: '/_edge/exit-override',
  live: '/_edge/live',
  ready: '/_edge/ready',
} as const;
const RETRY_AFTER_S = '2';
const PROFILE_WAIT_MS = 3000;

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** The member id the API gives for this token: a number, 'unauthorized', or 'unavailable'. */
async function memberOf(apiBase: string, authorization: string, fetchImpl: typeof fetch) {
  try {
    const response = await fetchImpl(new URL(API_PATHS.profile, apiBase), {
      headers: { Authorization: authorization, Accept: 'application/json' },
      signal: AbortSignal.timeout(PROFILE_WAIT_MS),
    });
    if (response.status === 401 || response.status === 403) return 'unauthorized' as const;
    if (!response.ok) return 'unavailable' as const;
    const { id } = (await response.json()) as { id?: unknown };
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : ('unavailable' as const);
  } catch {
    return 'unavailable' as const;
  }
}

/** Whether a page can be made: the shell's index.html is there and readable. */
async function shellReadable(dir: string): Promise<boolean> {
  try {
    await fs.promises.access(path.join(dir, 'index.html'), fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

export function edgeEndpoints(o: {
  state: DeploymentState;
  degraded: DegradedLog;
  secret: string;
  /** The shell's build (readiness reads it). */
  dir: string;
  lifecycle: Lifecycle;
  /** The render workers, for the status (null: this server renders nothing per request). */
  renderPool?: RenderPool | null;
  /** Whether the first deployment's render workers have started (or failed to): readiness waits for it. */
  renderersWarm?: () => boolean;
  fetchImpl?: typeof fetch;
  /** The API as the edge reaches it (API_URL); else the config's apiBaseUrl against the page's origin. */
  apiUrl?: string;
  /** Whether this request's cookies are Secure (request-origin.ts). */
  scheme: RequestScheme;
  /** Where Exit of a dev override is reported (override-use.ts), with the visitor's address behind these. */
  overrideUses?: OverrideUseReporter | null;
  trustedProxies?: TrustedProxies;
}) {
  const fetchImpl = o.fetchImpl ?? fetch;
  /** Exit of a link that still checks out is in the deploy audit (issue 47); the cookie goes regardless. */
  const reportExit = (req: IncomingMessage, selfOrigin: string) => {
    const { feed } = o.state;
    const apiBase = edgeApiBase(o.apiUrl, o.state.config(), selfOrigin);
    if (!feed || !apiBase || !o.overrideUses || !o.trustedProxies) return;
    const here = new URL(EDGE_PATHS.exitOverride, selfOrigin);
    const { token } = decideOverride(here, req.headers.cookie, {
      overrides: () => feed.overrides(),
      secure: false,
    });
    if (token) o.overrideUses.exited(token, overrideVisitor(req, o.trustedProxies), apiBase);
  };
  return async (req: IncomingMessage, res: ServerResponse, pathname: string, selfOrigin: string) => {
    const route = `${req.method} ${pathname}`;
    if (route === `GET ${EDGE_PATHS.live}`) return json(res, 200, { status: 'ok' });
    if (route === `GET ${EDGE_PATHS.ready}`) {
      const feed = o.state.feed;
      const notReady = o.lifecycle.draining
        ? 'This instance is shutting down.'
        : !(await shellReadable(o.dir))
          ? "The shell's build cannot be read."
          : feed && !feed.hasManifest()
            ? `No deployment from the API yet${feed.status().error ? ` (${feed.status().error})` : ''}.`
            : o.renderersWarm && !o.renderersWarm()
              ? 'The render workers of the deployed versions are starting.'
              : null;
      if (notReady) return json(res, 503, { error: notReady }, { 'Retry-After': RETRY_AFTER_S });
      return json(res, 200, { status: 'ok' });
    }
    if (route === `GET ${EDGE_PATHS.status}`) {
      if (!isInternalRequest(req)) return json(res, 404, { error: 'Not found' });
      const manifest = o.state.manifest();
      const pool = o.renderPool ?? null;
      return json(res, 200, {
        config: o.state.config() ? 'valid' : 'missing or invalid',
        manifest: manifest ? { environment: manifest.environment, revision: manifest.revision } : null,
        feed: o.state.feed?.status() ?? null,
        renderSandbox: pool ? { isolation: pool.isolation, workers: pool.status() } : null,
        degraded: o.degraded.list(),
      });
    }
    if (route === `POST ${EDGE_PATHS.exitPreview}`) {
      res.writeHead(204, {
        'Set-Cookie': clearPreviewCookie(o.scheme.secureCookies(req)),
        'Cache-Control': 'no-store',
      });
      return res.end();
    }
    if (route === `POST ${EDGE_PATHS.exitOverride}`) {
      reportExit(req, selfOrigin);
      res.writeHead(204, {
        'Set-Cookie': clearOverrideCookie(o.scheme.secureCookies(req)),
        'Cache-Control': 'no-store',
      });
      return res.end();
    }
    if (route === `POST ${EDGE_PATHS.identity}`) {
      const authorization = req.headers.authorization;
      if (!authorization?.startsWith('Bearer ')) return json(res, 401, { error: 'Sign in first.' });
      const config = o.state.config();
      const apiBase = config && edgeApiBase(o.apiUrl, config, selfOrigin);
      if (!apiBase) return json(res, 503, { error: 'The edge has no runtime config.' });
      const member = await memberOf(apiBase, authorization, fetchImpl);
      if (member === 'unauthorized') return json(res, 401, { error: 'Sign in first.' });
      if (member === 'unavailable')
        return json(res, 503, { error: 'The account could not be checked. Try again later.' });
      res.writeHead(204, {
        'Set-Cookie': visitorCookie(userKey(member), o.secret, { secure: o.scheme.secureCookies(req) }),
        'Cache-Control': 'no-store',
      });
      return res.end();
    }
    const allowed = {
      [EDGE_PATHS.status]: 'GET',
      [EDGE_PATHS.live]: 'GET',
      [EDGE_PATHS.ready]: 'GET',
      [EDGE_PATHS.exitPreview]: 'POST',
      [EDGE_PATHS.exitOverride]: 'POST',
      [EDGE_PATHS.identity]: 'POST',
    }[pathname];
    if (allowed) return json(res, 405, { error: 'Method not allowed' }, { Allow: allowed });
    return json(res, 404, { error: 'Not found' });
  };
}
