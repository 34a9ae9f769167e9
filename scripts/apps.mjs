// The apps of the workspace (declared once, in tooling/webpack/apps.mjs) with their folders, for build,
// start, dev, the benchmarks and the import rules.
import fs from 'node:fs';
import path from 'node:path';
import { APPS as DECLARED_APPS } from '@app/webpack-config/apps';

export const ROOT = path.resolve(import.meta.dirname, '..');

export const APPS = DECLARED_APPS.map((app) => ({
  ...app,
  dir: path.join(ROOT, app.name),
  dist: path.join(ROOT, app.name, 'dist'),
}));

/** Where the shell answers on this machine (its declared port). */
export const SHELL_URL = `http://localhost:${APPS.find((app) => app.name === 'shell').port}`;

export const API = {
  name: 'api-server',
  dir: path.join(ROOT, 'services', 'api-server'),
  port: Number(process.env.API_PORT ?? 4000),
};

/**
 * What the front ends build from besides their own folder: the shared libraries (packages/) and the build
 * tooling (tooling/); a change there makes every app stale. The layers are folders (ARCHITECTURE.md), so
 * the deployable servers (services/) and test support (testing/) are simply not among them.
 */
const dirsIn = (folder) =>
  fs.readdirSync(path.join(ROOT, folder)).map((name) => path.join(ROOT, folder, name));
export const SHARED_SOURCES = [...dirsIn('packages'), ...dirsIn('tooling')];
