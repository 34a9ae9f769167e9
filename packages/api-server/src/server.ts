import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app';
import type { Config } from './config';
import { type AppContext, createContext, seed } from './context';
import { withCompression } from './http-compression';
import { withEdgeHeaders } from './http-edge';

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  close(): Promise<void>;
}

/** Opens the database, migrates, seeds, and listens. Port 0 picks a free port (tests). */
export async function startServer(config: Config, now?: () => number): Promise<RunningServer> {
  const ctx = await createContext(config, now);
  await seed(ctx);
  const app = createApp(ctx);
  const server = createServer(
    { keepAliveTimeout: 5000 },
    withEdgeHeaders(config, withCompression(config.compressMinBytes, getRequestListener(app.fetch))),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          void ctx.close().then(resolve, resolve);
        });
      }),
  };
}
