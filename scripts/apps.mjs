// The apps of the workspace and their default ports (ARCHITECTURE.md). One list for build, start and dev.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export const APPS = [
  { name: 'shell', port: 3000, spa: true },
  { name: 'mf-account', port: 3001 },
  { name: 'mf-research', port: 3002 },
  { name: 'mf-survey', port: 3003 },
  { name: 'mf-public-pages', port: 3004 },
].map((app) => ({ ...app, dir: path.join(ROOT, app.name), dist: path.join(ROOT, app.name, 'dist') }));

export const API = { name: 'api-server', port: Number(process.env.API_PORT ?? 4000) };

/** Packages the front ends build from (all but the server-side ones): a change there makes every app stale. */
const SERVER_PACKAGES = new Set(['api-server', 'static-server', 'release']);
export const SHARED_SOURCES = fs
  .readdirSync(path.join(ROOT, 'packages'))
  .filter((pkg) => !SERVER_PACKAGES.has(pkg))
  .map((pkg) => path.join(ROOT, 'packages', pkg));
