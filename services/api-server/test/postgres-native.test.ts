import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { limitsWith, surveyAnswers, TestServer, tempDatabase, totpCode } from './helpers';

/**
 * Migration 28 (issue 49, docs/decisions/0046-postgresql-native-types.md) on a real database: a copy of one
 * that the main of the day made and used at schema 27 (test/fixtures/main-postgres.sql, made by
 * test/fixtures/make-main-postgres.mjs, with the answers main's API gave on it). The API of this checkout
 * converts it at start; every answer must be the one main gave, and writing must go on. PostgreSQL only
 * (vitest.config.ts): SQLite's migration 28 changes no type.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'main-postgres.json'), 'utf8')) as {
  madeAt: string;
  schemaVersion: number;
  apiEnvironment: Record<string, string>;
  credentials: {
    admin: { token: string; secondToken: string; totpSecret: string };
    alice: { id: number; token: string };
    carol: { id: number; token: string };
    bob: { id: number; email: string; password: string };
    deployToken: { token: string };
  };
  ids: { publishedPost: { id: number }; contactedLead: number };
  answers: {
    name: string;
    method: string;
    path: string;
    auth: string;
    headers?: Record<string, string>;
    status: number;
    body: unknown;
  }[];
};
const { credentials: who, ids } = fixture;
const TOKENS: Record<string, string | null> = {
  guest: null,
  alice: who.alice.token,
  carol: who.carol.token,
  admin: who.admin.token,
  adminSecondSession: who.admin.secondToken,
  deploy: who.deployToken.token,
};
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let s: TestServer;
let databaseUrl: string;

/**
 * The server's clock: two minutes after the fixture was made, running on from there. Its sessions (a year
 * long) and its admin's last second-factor step were written at that time: the test holds whenever it runs.
 */
const startedAt = Date.now();
const fixtureClock = () => Date.parse(fixture.madeAt) + 2 * 60_000 + (Date.now() - startedAt);

/** The restored database's answer to one SQL query, through psql (the API's own pool is under test). */
function psql(query: string): string {
  const run = spawnSync(
    process.env.TEST_POSTGRES_PSQL ?? 'psql',
    [databaseUrl, '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', query],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
  return run.stdout.trim();
}

beforeAll(async () => {
  const database = tempDatabase();
  databaseUrl = database.databaseUrl!;
  const restore = spawnSync(
    process.env.TEST_POSTGRES_PSQL ?? 'psql',
    [databaseUrl, '-q', '-v', 'ON_ERROR_STOP=1', '-f', path.join(FIXTURES, 'main-postgres.sql')],
    { encoding: 'utf8' },
  );
  if (restore.status !== 0) throw new Error(`restoring the fixture failed: ${restore.stderr}`);
  expect(Number(psql('SELECT MAX(version) FROM schema_migrations'))).toBe(fixture.schemaVersion);
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'api-native-'));
  const config = loadConfig(
    {
      ...fixture.apiEnvironment,
      RELEASE_STORE_DIR: path.join(store, 'releases'),
      DEPLOY_DIR: path.join(store, 'deploy'),
    },
    { ...database, logLevel: 'silent', rateLimits: limitsWith() },
  );
  s = new TestServer(await startServer(config, fixtureClock));
}, 60_000);

afterAll(() => s?.close());

describe('a PostgreSQL database of schema 27, made by main, upgraded to PostgreSQL native types', () => {
  it('is converted in place: booleans, times and JSON documents have their own types', () => {
    expect(Number(psql('SELECT MAX(version) FROM schema_migrations'))).toBe(28);
    const type = (table: string, column: string) =>
      psql(
        `SELECT data_type FROM information_schema.columns WHERE table_name = '${table}' AND column_name = '${column}'`,
      );
    expect(type('users', 'is_active')).toBe('boolean');
    expect(type('lead_counts', 'contacted')).toBe('boolean');
    expect(type('posts', 'published_at')).toBe('timestamp with time zone');
    expect(type('deploy_overrides', 'expires_at')).toBe('timestamp with time zone');
    expect(type('market_assessments', 'payload')).toBe('jsonb');
    expect(type('deployments', 'manifest_json')).toBe('jsonb');
    // The stored cards stay the bytes they are (decision 0046).
    expect(type('posts', 'card_json')).toBe('text');
    // The values came over: the members main had active and pending, the three forced deploy actions.
    expect(
      psql('SELECT COUNT(*) FILTER (WHERE is_active), COUNT(*) FILTER (WHERE NOT is_active) FROM users'),
    ).toBe('4|1');
    expect(psql('SELECT COUNT(*) FROM deploy_audit WHERE forced')).toBe('3');
  });

  it('answers every recorded request exactly as main did', async () => {
    for (const a of fixture.answers) {
      const r = await s.req(a.method, a.path, { token: TOKENS[a.auth], headers: a.headers });
      expect({ name: a.name, status: r.status, body: r.body }).toEqual({
        name: a.name,
        status: a.status,
        body: a.body,
      });
    }
  });

  it('writes on: a comment, a post, an activation, an assessment and a lead unmarked', async () => {
    const post = ids.publishedPost.id;
    const comment = await s.post(
      `/api/posts/${post}/comments`,
      { content: 'After the upgrade' },
      who.alice.token,
    );
    expect(comment.status).toBe(201);
    expect(comment.body.created_at).toMatch(ISO_MS);
    const comments = await s.get(`/api/posts/${post}/comments`, who.carol.token);
    expect(comments.body.map((c: { content: string }) => c.content)).toContain('After the upgrade');

    // A new post's card is written by the converted trigger: its times in the API's own format.
    const made = await s.post(
      '/api/posts',
      { title: 'Written on schema 28', content: 'Body', status: 'published', visibility: 'public' },
      who.alice.token,
    );
    expect(made.status).toBe(201);
    const listed = await s.get('/api/posts?status=published&visibility=public&limit=50');
    const card = listed.body.find((p: { id: number }) => p.id === made.body.id);
    expect(card.created_at).toBe(made.body.created_at);
    expect(card.published_at).toMatch(ISO_MS);

    // bob waited for activation on main: an admin (second factor, step-up) activates him; he logs in.
    const code = totpCode(who.admin.totpSecret, fixtureClock());
    expect((await s.post('/api/account/two-factor/verify', { code }, who.admin.token)).status).toBe(200);
    const activated = await s.post('/api/admin/members/activate', { ids: [who.bob.id] }, who.admin.token);
    expect(activated.status).toBe(200);
    const login = await s.post('/api/login', { username: who.bob.email, password: who.bob.password });
    expect(login.status).toBe(200);
    const pending = await s.get('/api/admin/members?status=pending', who.admin.token);
    expect(pending.body.items.map((m: { id: number }) => m.id)).not.toContain(who.bob.id);

    // A new assessment, then main's contacted lead unmarked: the lead counts follow both.
    const before = (await s.get('/api/admin/leads?limit=50', who.admin.token)).body;
    const answers = surveyAnswers({ email: 'after-28@example.com', consultationInterest: true });
    expect([200, 201]).toContain((await s.post('/api/market-assessment', answers)).status);
    const unmarked = await s.del(`/api/admin/leads/${ids.contactedLead}/contacted`, who.admin.token);
    expect(unmarked.status).toBe(200);
    expect(unmarked.body.contacted_at).toBeNull();
    const after = (await s.get('/api/admin/leads?limit=50', who.admin.token)).body;
    expect(after.total).toBe(before.total + 1);
    const fresh = after.items.find((l: { email: string }) => l.email === 'after-28@example.com');
    expect(fresh).toMatchObject({ consultation: true, contacted_at: null });
    expect(fresh.created_at).toMatch(ISO_MS);
    const contacted = await s.get('/api/admin/leads?contacted=yes&limit=50', who.admin.token);
    expect(contacted.body.items.map((l: { id: number }) => l.id)).not.toContain(ids.contactedLead);
    expect(contacted.body.total).toBe(contacted.body.items.length);
  });
});
