// The compiled server (build.mjs, docs/decisions/0028-process-lifecycle.md) as production runs it: plain node
// on dist/main.mjs. It must start, migrate, serve, search through its worker file and drain like the sources.
// The compiled administration CLI (issue 48) likewise: plain node on dist/admin.mjs, no tsx anywhere.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module beside the package, without types
import { ADMIN_BUNDLE, buildApi } from '../build.mjs';
import { type ChildServer, request, startChildServer } from './child-server';
import { tempDatabase } from './helpers';

let server: ChildServer | null = null;
afterEach(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  server = null;
});

describe('the compiled API', () => {
  it('serves from dist/main.mjs, searches on its worker threads, and drains on SIGTERM', async () => {
    const bundle: string = await buildApi();
    const db = tempDatabase();
    server = await startChildServer(
      {
        ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DB_PATH: db.dbPath }),
        SEARCH_WORKERS: '1',
      },
      { bundle },
    );
    expect((await request(`${server.url}/api/health/ready`)).status).toBe(200);
    const posts = await request(`${server.url}/api/posts?limit=5`);
    expect(posts.status).toBe(200);
    expect(JSON.parse(posts.body).length).toBe(5);
    // Seeded from dist/seed-data/ (build.mjs copies src/db/seed-data/ there): the bundle reads it beside itself.
    const dashboards = await request(`${server.url}/api/dashboards`);
    expect(JSON.parse(dashboards.body).map((d: { slug: string }) => d.slug)).toContain('threat-landscape');
    const search = await request(`${server.url}/api/posts/search?q=risk`);
    expect(search.status).toBe(200);
    expect(JSON.parse(search.body).length).toBeGreaterThan(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe('the compiled administration CLI', () => {
  it('runs with plain node from dist/admin.mjs, reached through a symlink as /opt/risk-intel/current is', async () => {
    await buildApi();
    const text = fs.readFileSync(ADMIN_BUNDLE, 'utf8');
    // tsx is no part of it: production has no TypeScript loader at run time.
    expect(text).not.toMatch(/from ["']tsx|import\(["']tsx|require\(["']tsx/);
    const db = tempDatabase();
    const env = {
      PATH: process.env.PATH ?? '',
      ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DB_PATH: db.dbPath }),
    };
    // A release folder reached through a link, as on a host: the CLI must still run (not check argv[1]).
    const link = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'admin-bundle-')), 'current');
    fs.symlinkSync(path.dirname(path.dirname(ADMIN_BUNDLE)), link);
    const admin = path.join(link, 'dist', 'admin.mjs');
    const created = execFileSync(
      process.execPath,
      [
        admin,
        'create-admin',
        '--email',
        'ops@example.com',
        '--username',
        'ops',
        '--password',
        'S3cure-pass-1',
      ],
      { encoding: 'utf8', env },
    );
    expect(created).toMatch(/^Created administrator #\d+ ops <ops@example.com>/);
    const list = execFileSync(process.execPath, [admin, 'list'], { encoding: 'utf8', env });
    expect(list).toMatch(/active\s+ops\s+ops@example.com\s+admin/);
    const unknown = spawnSync(process.execPath, [admin, 'no-such-command'], { encoding: 'utf8', env });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown command "no-such-command"/);
    fs.rmSync(path.dirname(link), { recursive: true, force: true });
  }, 60_000);
});
