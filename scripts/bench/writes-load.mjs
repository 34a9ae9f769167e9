// The load of `pnpm bench:writes` (scripts/bench/writes.mjs says what it measures): the writer accounts, the
// posts they write to, the 16 writers' loop through the public HTTP API, and the floor on the bare driver.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const PASSWORD = 'Secret123x';
/** Seeded published posts the writers comment on and like. */
const SEED_POSTS = 8;
/**
 * One writer's cycle (each writer starts at another step): 30 % comments, 30 % like toggles (a like or an
 * unlike), 20 % new drafts, 20 % updates of the writer's latest draft.
 */
const MIX = ['comment', 'like', 'create', 'update', 'comment', 'like', 'update', 'like', 'comment', 'create'];
/** Writers in groups of 4 (on both instances when there are 2); every 3rd draft of each has its group's title. */
const GROUP = 4;
const BODY = Array.from(
  { length: 12 },
  (_, i) =>
    `Paragraph ${i + 1}: freight rates, input costs and the currency move the margin outlook; **watch** the spread.`,
).join('\n\n');

/** An HTTP client with keep-alive connections, one per writer at most. */
export function httpClient() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const send = (base, method, p, { token, body } = {}) =>
    new Promise((resolve) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const headers = { 'content-length': Buffer.byteLength(payload), 'user-agent': 'bench-writes' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      const started = performance.now();
      const done = (status, text) => resolve({ status, text, ms: performance.now() - started });
      const req = http.request(`${base}${p}`, { method, agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => done(res.statusCode, text));
        res.on('error', (error) => done(0, error.message));
      });
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', (error) => done(0, error.message));
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

async function must(promise, what, expected) {
  const r = await promise;
  if (r.status !== expected) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.text ? JSON.parse(r.text) : null;
}

/**
 * `count` writer accounts: registered through the API (REQUIRES_ACTIVATION=false activates them), the
 * premium role (paid-tier-1) granted with one INSERT into user_roles (as bench/admin-lists.ts makes its
 * admin), then logged in through the API. Then the posts they write to: SEED_POSTS published ones and one
 * draft per writer. Returns [{ index, token, base, drafts: [id] }] and the published posts' ids.
 */
export async function setupWriters({ client, urls, count, pg, databaseUrl }) {
  const names = Array.from({ length: count }, (_, i) => `benchw_${i}`);
  for (const [i, username] of names.entries()) {
    const body = {
      username,
      password: PASSWORD,
      name: { first: 'Bench', last: `Writer ${i}` },
      email: `${username}@example.com`,
      address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
    };
    await must(client.send(urls[0], 'POST', '/api/register', { body }), `register ${username}`, 201);
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO user_roles (user_id, role) SELECT id, 'paid-tier-1' FROM users WHERE username = ANY($1)`,
      [names],
    );
  } finally {
    await db.end();
  }
  const writers = [];
  for (const [i, username] of names.entries()) {
    const base = urls[i % urls.length];
    const body = { username: `${username}@example.com`, password: PASSWORD };
    const { token } = await must(client.send(base, 'POST', '/api/login', { body }), `login ${username}`, 200);
    writers.push({ index: i, token, base, drafts: [], creates: 0, updates: 0, comments: 0 });
  }
  const posts = [];
  for (let i = 0; i < SEED_POSTS; i++) {
    const w = writers[i % writers.length];
    const body = { ...postBody(`Seeded outlook ${i}`), status: 'published', visibility: 'public' };
    posts.push(
      (await must(client.send(w.base, 'POST', '/api/posts', { token: w.token, body }), 'seed', 201)).id,
    );
  }
  for (const w of writers) {
    const body = postBody(`First draft of writer ${w.index}`);
    w.drafts.push(
      (await must(client.send(w.base, 'POST', '/api/posts', { token: w.token, body }), 'draft', 201)).id,
    );
  }
  return { writers, posts };
}

function postBody(title) {
  return {
    title,
    summary: `${title}: what moved this week`,
    content: `## ${title}\n\n${BODY}`,
    content_type: 'research_report',
    visibility: 'paid-tier-1',
    status: 'draft',
    tags: ['bench', 'energy'],
    categories: ['Markets'],
  };
}

/** The next write of writer `w`: [op, method, path, body]. */
function nextWrite(w, step, posts) {
  const op = MIX[(w.index + step) % MIX.length];
  const post = posts[(w.index * 7 + step * 3) % posts.length];
  if (op === 'comment') {
    w.comments += 1;
    return [
      op,
      'POST',
      `/api/posts/${post}/comments`,
      { content: `Comment ${w.comments} of writer ${w.index}.` },
    ];
  }
  if (op === 'like') return [op, 'POST', `/api/posts/${post}/like`, undefined];
  if (op === 'create') {
    w.creates += 1;
    // Every 3rd draft: the title the writer's group shares for its k-th shared draft, written at about the
    // same time by the group's 4 writers, so their slugs collide (a chain of at most 4, however long the run).
    const shared = w.creates % 3 === 0;
    const group = Math.floor(w.index / GROUP);
    const title = shared
      ? `Market brief ${group}-${w.creates / 3}`
      : `Draft ${w.creates} of writer ${w.index} on supply chains`;
    return [op, 'POST', '/api/posts', postBody(title)];
  }
  w.updates += 1;
  const body = { summary: `Revision ${w.updates}`, content: `## Revision ${w.updates}\n\n${BODY}` };
  return [op, 'PUT', `/api/posts/${w.drafts.at(-1)}`, body];
}

/**
 * Every writer in a closed loop (one request at a time) for `seconds`, each through its own instance.
 * Returns the counts: ok (2xx) and failed by status, overall and per kind of write, the acknowledged
 * writes' latencies, a few failure bodies per status, and the elapsed time (to the last writer's end).
 */
export async function runWriters({ client, writers, posts, seconds }) {
  const stats = { ok: 0, failed: {}, byOp: {}, latencies: [], samples: {} };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    writers.map(async (w) => {
      for (let step = 0; performance.now() < deadline; step++) {
        const [op, method, p, body] = nextWrite(w, step, posts);
        const r = await client.send(w.base, method, p, { token: w.token, body });
        stats.byOp[op] ??= { ok: 0, failed: 0 };
        const byOp = stats.byOp[op];
        if (r.status >= 200 && r.status < 300) {
          stats.ok += 1;
          byOp.ok += 1;
          stats.latencies.push(r.ms);
          if (op === 'create') w.drafts.push(JSON.parse(r.text).id);
        } else {
          byOp.failed += 1;
          stats.failed[r.status] = (stats.failed[r.status] ?? 0) + 1;
          stats.samples[r.status] ??= [];
          const samples = stats.samples[r.status];
          if (samples.length < 3) samples.push(`${op} ${method} ${p}: ${r.text.slice(0, 200)}`);
        }
      }
    }),
  );
  return { ...stats, elapsedMs: performance.now() - started };
}

/** p50 and p95 of `values` (ms), rounded to 0.1. */
export function percentiles(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (q) =>
    sorted.length
      ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10
      : null;
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * The floor: the bare driver (`pg`, one client per connection) inserting a comment in a transaction of its
 * own, as the API's comment write does (BEGIN, INSERT … RETURNING, COMMIT: the same table and triggers), on
 * `connections` connections for `seconds`; with `lock`, each transaction also takes
 * pg_advisory_xact_lock(1201) first, as every API write transaction does today.
 */
export async function floor({ pg, databaseUrl, connections, seconds, lock }) {
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  const { rows } = await setup.query('SELECT id, author_id FROM posts ORDER BY id LIMIT 8');
  await setup.end();
  const clients = Array.from({ length: connections }, () => new pg.Client({ connectionString: databaseUrl }));
  await Promise.all(clients.map((c) => c.connect()));
  const latencies = [];
  let failed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    clients.map(async (c, i) => {
      for (let n = 0; performance.now() < deadline; n++) {
        const post = rows[(i + n) % rows.length];
        const t0 = performance.now();
        try {
          await c.query('BEGIN');
          if (lock) await c.query('SELECT pg_advisory_xact_lock(1201)');
          const now = new Date().toISOString();
          await c.query(
            'INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id',
            [post.id, post.author_id, `Floor comment ${n} of connection ${i}.`, now],
          );
          await c.query('COMMIT');
          latencies.push(performance.now() - t0);
        } catch {
          failed += 1;
          await c.query('ROLLBACK').catch(() => {});
        }
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  await Promise.all(clients.map((c) => c.end()));
  return {
    ok: latencies.length,
    failed,
    perSecond: (latencies.length / elapsedMs) * 1000,
    ...percentiles(latencies),
  };
}
