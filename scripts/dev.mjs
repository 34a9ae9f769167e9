// `pnpm dev`: every app on its default port with webpack's dev server (rebuild on change) and the API server
// with reload on change. To work on one remote alone: `pnpm --filter mf-account dev`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { API, APPS, ROOT } from './apps.mjs';

const children = [];
const stopAll = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

// The pages follow the API's port (API_PORT): the dev frames and the shell's config.json are told where it is.
const appEnv = { ...process.env, API_BASE_URL: process.env.API_BASE_URL || `http://localhost:${API.port}` };
for (const app of APPS) {
  children.push(spawn('pnpm', ['--silent', 'run', 'dev'], { cwd: app.dir, stdio: 'inherit', env: appEnv }));
}
if (fs.existsSync(path.join(API.dir, 'package.json'))) {
  children.push(
    spawn('pnpm', ['--silent', '--filter', '@app/api-server', 'dev'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, PORT: String(API.port) },
    }),
  );
}
console.log(`dev servers: ${APPS.map((a) => `${a.name}:${a.port}`).join(' ')} api:${API.port}`);
