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
  /** Origins whose pages may read these files cross-origin (default: ALLOWED_ORIGINS or localhost:3000). */
  allowedOrigins?: string[];
  /** Serve *.map files (default: SERVE_SOURCE_MAPS=1); otherwise they are a 404. */
  serveSourceMaps?: boolean;
  /** Append CSP violation reports to this file (default: CSP_REPORT_FILE). */
  cspReportFile?: string;
}): Promise<Server>;
