import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closingWhenDraining, type DrainResult, drainServer, type Lifecycle } from '@app/http-lifecycle';
import { writeLogLine } from '@app/server-telemetry/log';
import { getRequestListener } from '@hono/node-server';
import { createApp, createAppListCache } from './app';
import type { Config } from './config';
import { type AppContext, createContext, seed } from './context';
import { withCompression } from './http-compression';
import { withEdgeHeaders } from './http-edge';
import { withListLane } from './http-list-lane';
import { withMetricsEndpoint, withRequestMetrics } from './http-metrics';
import { MailSender, smtpDeliver } from './mail/sender';
import { type ApiMetrics, apiMetrics } from './metrics';
import type { DeployFeed } from './services/deploy-feed';
import { importDeploymentFiles } from './services/deploy-import';
import { ensureLocalDeployToken } from './services/deploy-local-token';

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  /** Closes every connection at once, then the database (tests). */
  close(): Promise<void>;
  /** The outbox's sender, when SMTP_URL is set (null: mail stays in the outbox). */
  mailSender: MailSender | null;
  /** SIGTERM's way: readiness 503, no new connections, in-flight requests finish within the bound, database closed. */
  drain(timeoutMs: number): Promise<DrainResult>;
  /** Deployment feed requests waiting on this instance: tests wait for a long poll to be held, not a while. */
  feedWaiting(): number;
  /** What GET /metrics shows (src/metrics.ts). */
  metrics: ApiMetrics;
}

export interface ServerOptions {
  /** The process's own metrics on /metrics (CPU, memory, event loop, GC): main.ts; off in tests by default. */
  processMetrics?: boolean;
}

/** Opens the database, migrates, seeds, and listens. Port 0 picks a free port (tests). */
export async function startServer(
  config: Config,
  now?: () => number,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const ctx = await createContext(config, now);
  await seed(ctx);
  await ensureLocalDeployToken(config.rollout.paths.deployDir, ctx.deployTokens);
  await importDeploymentFiles(ctx.sql, config.rollout.paths.deployDir, config.deploy.environments, ctx.now);
  // The outbox's sender (issue 34): only with SMTP_URL; without it mail waits in the outbox, never attempted.
  const smtp = config.mail.smtpUrl ? smtpDeliver(config.mail, ctx.secrets) : null;
  const mailSender = smtp
    ? new MailSender(ctx.outbox, config.mail, smtp.deliver, (error) => {
        if (config.logLevel !== 'silent') {
          writeLogLine(
            {
              level: 'warn',
              time: new Date(ctx.now()).toISOString(),
              msg: 'mail sender round failed',
              error: String(error),
            },
            'stderr',
          );
        }
      })
    : null;
  const stopMail = async () => {
    await mailSender?.stop();
    smtp?.close();
  };
  const lifecycle: Lifecycle = { draining: false };
  let feed: DeployFeed | null = null;
  const listCache = createAppListCache(ctx);
  const feedWaiting = () => feed?.waiting ?? 0;
  const metrics = apiMetrics(ctx, { processMetrics: options.processMetrics ?? false, feedWaiting });
  const app = createApp(
    ctx,
    lifecycle,
    (f) => {
      feed = f;
    },
    listCache,
  );
  const lanes = withListLane(ctx, listCache, getRequestListener(app.fetch));
  const server = createServer(
    { keepAliveTimeout: 5000 },
    closingWhenDraining(
      lifecycle,
      withRequestMetrics(
        metrics,
        withEdgeHeaders(
          config,
          withCompression(config.compressMinBytes, withMetricsEndpoint(metrics, lanes)),
        ),
      ),
    ),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  mailSender?.start();
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    mailSender,
    feedWaiting,
    metrics,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          void stopMail()
            .then(() => ctx.close())
            .then(resolve, resolve);
        });
      }),
    drain: async (timeoutMs) => {
      // The sender stops with the requests: the mail in hand finishes, nothing more is claimed.
      const [result] = await Promise.all([drainServer(server, lifecycle, timeoutMs), stopMail()]);
      await ctx.close();
      return result;
    },
  };
}
