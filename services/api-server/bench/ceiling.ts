/**
 * pnpm bench:api --ceiling — what this machine can answer at all, with nothing of ours in the way: the same
 * autocannon load (50 connections) against a server that answers every GET with one fixed JSON body the size
 * of Explore's 50 cards. Once with node:http alone, once through hono and @hono/node-server as the API uses
 * them. Neither touches a database or checks a token, so the figures are an upper bound for any route of
 * the API on these cores (autocannon shares them), and say whether a target is reachable here at all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cannon, figure, formatFigure } from './measure';

// A body the size of Explore's answer (50 cards of ~600 bytes): what the API sends is not the point here.
const CARD = {
  id: 1,
  slug: 'a-post',
  title: 'A title of a research post',
  summary: 'x'.repeat(160),
  excerpt: 'y'.repeat(120),
};
const BODY = JSON.stringify({
  items: Array.from({ length: 50 }, (_, i) => ({ ...CARD, id: i, tags: ['market', 'risk'] })),
  nextCursor: 'abc',
});

const SERVERS = {
  'node:http, fixed JSON': `
    import http from 'node:http';
    const body = Buffer.from(process.env.BODY);
    http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); })
      .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
  'hono + @hono/node-server, fixed JSON': `
    import http from 'node:http';
    import { Hono } from 'hono';
    import { getRequestListener } from '@hono/node-server';
    const body = process.env.BODY;
    const app = new Hono().get('*', (c) => c.body(body, 200, { 'content-type': 'application/json' }));
    http.createServer({ keepAliveTimeout: 5000 }, getRequestListener(app.fetch))
      .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
};

async function serve(source: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    cwd: new URL('..', import.meta.url),
    env: { ...process.env, BODY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, base: `http://127.0.0.1:${chunk.toString().trim()}` };
}

export async function benchCeiling(): Promise<void> {
  console.log(
    `Ceiling: one fixed ${BODY.length}-byte JSON answer, 50 connections, autocannon on the same cores\n`,
  );
  for (const [label, source] of Object.entries(SERVERS)) {
    const { child, base } = await serve(source);
    await cannon({ url: `${base}/api/posts`, duration: 1 }); // warm-up
    const f = figure(await cannon({ url: `${base}/api/posts` }));
    console.log(`${label.padEnd(40)} ${formatFigure(f)}`);
    child.kill();
  }
}
