import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import type { Config } from './config';
import { type AppContext, createContext, seed } from './context';

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  close(): Promise<void>;
}

/** Opens the database, migrates, seeds, and listens. Port 0 picks a free port (tests). */
export async function startServer(config: Config): Promise<RunningServer> {
  const ctx = createContext(config);
  await seed(ctx);
  const app = createApp(ctx);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => {
          ctx.close();
          resolve();
        });
      }),
  };
}
