// The compiled server (build.mjs, docs/decisions/0028-process-lifecycle.md) as production runs it: plain node
// on dist/main.mjs. It must start, migrate, serve, search through its worker file and drain like the sources.
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module beside the package, without types
import { buildApi } from '../build.mjs';
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
    const search = await request(`${server.url}/api/posts/search?q=risk`);
    expect(search.status).toBe(200);
    expect(JSON.parse(search.body).length).toBeGreaterThan(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
