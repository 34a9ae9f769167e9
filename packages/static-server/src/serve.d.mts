import type { Server } from 'node:http';

export declare function cacheControlFor(pathname: string): string;
export declare function serveApp(app: {
  name: string;
  dir: string;
  port: number;
  host?: string;
  spa?: boolean;
  runtimeConfig?: object;
  /** Serve the release store under /releases/ and the deployment manifest as /deployment.json. */
  releases?: { store: string; manifestFile: string };
}): Promise<Server>;
