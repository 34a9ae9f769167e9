import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { clientAddress, type TrustedProxies } from '@app/client-address';
import { DEPLOY_PATHS, OVERRIDE_USE_MAX_VIEWS, type OverrideUse } from '@app/contracts/deploy';

/**
 * The use of dev override links, reported to the API (issue 47, docs/decisions/0042-dev-overrides.md): a
 * browser opened a link (the edge accepted `?override=` and set the cookie), pages were served under it, Exit
 * in its banner. The API audits opens and Exit and counts page views on the link
 * (POST DEPLOY_PATHS.overrideUses, the link's token as the only proof: the edge holds no credential).
 * Opens and Exit are sent at once, page views are added up per token and sent every `flushMs` and on stop.
 * Nothing waits for the API: a report that fails is dropped, and a run of failures is logged once (then
 * once more when reports are recorded again); a 404 (the link ended since) is no failure, only dropped. Health is another matter: these pages send none (shell-page.ts).
 */
export const OVERRIDE_VIEWS_FLUSH_MS = 10_000;
const REPORT_TIMEOUT_MS = 5000;
/** Only printable ASCII of a User-Agent, and not all of it: the API's schema bounds it, the body limit too. */
const USER_AGENT_MAX = 512;

/** Who used the link, in the audit's words: their client address and their browser's User-Agent. */
export interface OverrideVisitor {
  address?: string;
  userAgent?: string;
}

/** The visitor of a request, as the API accepts them (an address it cannot parse is left out). */
export function overrideVisitor(req: IncomingMessage, proxies: TrustedProxies): OverrideVisitor {
  const forwarded = req.headers['x-forwarded-for'];
  const address = clientAddress(req.socket.remoteAddress, forwarded as string | undefined, proxies);
  const userAgent = (req.headers['user-agent'] ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, USER_AGENT_MAX);
  return { ...(isIP(address) ? { address } : {}), ...(userAgent ? { userAgent } : {}) };
}

export interface OverrideUseReporter {
  /** A browser opened the link with this token; `apiBase` is the API as this edge reaches it. */
  opened(token: string, visitor: OverrideVisitor, apiBase: string): void;
  /** A page was served under the override of this token (sent with the next flush). */
  viewed(token: string, apiBase: string): void;
  /** Exit in the banner: sent at once, with the page views not yet sent. */
  exited(token: string, visitor: OverrideVisitor, apiBase: string): void;
  /** Sends the page views counted so far; resolves once every report in flight has ended. */
  flush(): Promise<void>;
  /** Draining or stopping: no more timer, and what is counted is sent (bounded by the reports' timeout). */
  stop(): Promise<void>;
}

export type LogLine = Record<string, unknown> & { level: 'info' | 'warn'; msg: string };

/** The edge's JSON log lines (as main.ts's): warnings on stderr, the rest on stdout. */
const jsonLog = (line: LogLine) =>
  (line.level === 'warn' ? process.stderr : process.stdout).write(
    `${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`,
  );

export function overrideUseReporter(o: {
  environment: string;
  fetchImpl?: typeof fetch;
  flushMs?: number;
  log?: (line: LogLine) => void;
}): OverrideUseReporter {
  const fetchImpl = o.fetchImpl ?? fetch;
  const log = o.log ?? jsonLog;
  const flushMs = o.flushMs ?? OVERRIDE_VIEWS_FLUSH_MS;
  const pending = new Map<string, { views: number; apiBase: string }>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let failures = 0;

  function failed(use: OverrideUse, error: string) {
    failures += 1;
    if (failures > 1) return;
    log({
      level: 'warn',
      msg: 'dev override use not recorded by the API (dropped; further failures are not logged until one is recorded)',
      environment: o.environment,
      event: use.event,
      error,
    });
  }
  function recorded() {
    if (failures === 0) return;
    log({ level: 'info', msg: 'dev override uses recorded again', environment: o.environment, failures });
    failures = 0;
  }

  async function post(apiBase: string, use: OverrideUse): Promise<void> {
    try {
      const response = await fetchImpl(new URL(DEPLOY_PATHS.overrideUses(o.environment), apiBase), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(use),
        signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
      if (response.ok) return recorded();
      // The link ended (revoked, expired) after this edge last checked it: nothing to record, nothing wrong.
      if (response.status === 404) return;
      failed(use, `${response.status}${typeof body?.error === 'string' ? `: ${body.error}` : ''}`);
    } catch (error) {
      failed(use, error instanceof Error ? error.message : String(error));
    }
  }
  function send(apiBase: string, use: OverrideUse) {
    const sent = post(apiBase, use);
    inFlight.add(sent);
    void sent.then(() => inFlight.delete(sent));
  }
  /** The page views counted for `token`, taken: at most a report's worth (the rest stays counted). */
  function take(token: string): { views: number; apiBase: string } | null {
    const counted = pending.get(token);
    if (!counted) return null;
    const views = Math.min(counted.views, OVERRIDE_USE_MAX_VIEWS);
    counted.views -= views;
    if (counted.views === 0) pending.delete(token);
    return { views, apiBase: counted.apiBase };
  }
  function sendViews() {
    timer = null;
    for (const token of [...pending.keys()]) {
      for (let batch = take(token); batch; batch = take(token)) {
        send(batch.apiBase, { token, event: 'views', views: batch.views });
      }
    }
  }
  async function flush() {
    if (timer) clearTimeout(timer);
    sendViews();
    while (inFlight.size > 0) await Promise.all(inFlight);
  }

  return {
    opened(token, visitor, apiBase) {
      send(apiBase, { token, event: 'open', ...visitor });
    },
    viewed(token, apiBase) {
      const counted = pending.get(token) ?? { views: 0, apiBase };
      pending.set(token, { views: counted.views + 1, apiBase });
      if (stopped) sendViews();
      else timer ??= setTimeout(sendViews, flushMs).unref();
    },
    exited(token, visitor, apiBase) {
      const batch = take(token);
      if (batch && pending.has(token)) sendViews(); // more than one report's worth: the rest first
      send(apiBase, { token, event: 'exit', ...(batch ? { views: batch.views } : {}), ...visitor });
    },
    flush,
    stop() {
      stopped = true;
      return flush();
    },
  };
}
