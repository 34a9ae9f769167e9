import { API_PATHS, MESSAGES } from '@app/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../src/db/database';
import type { Sql } from '../src/db/sql';
import { WRITE_ATTEMPTS } from '../src/db/write-conflicts';
import {
  ON_POSTGRES,
  postInput,
  registration,
  type TestServer,
  tempDatabase,
  twoInstancesPerTest,
} from './helpers';
import { freshAddress, from } from './rate-limit-fixtures';

/**
 * Issue 49: PostgreSQL's writers run in parallel, with no lock shared by every write (db/sql.ts); a race lost
 * is run again (db/write-conflicts.ts) or guarded by what it touches. races.test.ts races the five operations
 * the issue names; this file checks that writes really are parallel, that a deadlock between two writers is
 * retried rather than answered 500, and the races the unique constraints decide (registrations).
 */
const twoInstances = twoInstancesPerTest();
const opened: Sql[] = [];
afterEach(async () => {
  for (const sql of opened.splice(0)) await sql.close();
});

async function database(): Promise<Sql> {
  const sql = openDatabase(tempDatabase());
  opened.push(sql);
  await migrate(sql);
  return sql;
}

/** A promise and the function that settles it: a step one transaction waits for until the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('writers on one database', () => {
  it('registrations of one email through both instances at once: one account, every other answer a 409', async () => {
    const [a, b] = await twoInstances();
    const email = `race-${Date.now()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? b : a).post('/api/register', registration({ email }))),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    for (const r of answers.filter((r) => r.status === 409)) expect(r.body.error).toMatch(/./);
    expect(Number(await a.sql.value('SELECT COUNT(*) FROM users WHERE email = ?', [email]))).toBe(1);
  });

  it('wrong passwords fired at once through both instances are each counted: the limit locks the account', async () => {
    const [a, b] = await twoInstances({
      trustedProxies: ['127.0.0.1', '::1'],
      lockout: { maxAttempts: 5, windowMs: 900_000, durationMs: 900_000, addressMaxAttempts: 30 },
    });
    const u = await a.user();
    const attacker = freshAddress();
    const login = (s: TestServer, password: string) =>
      s.req('POST', API_PATHS.login, { body: { username: u.email, password }, headers: from(attacker) });
    const wrong = await Promise.all(
      Array.from({ length: 5 }, (_, i) => login(i % 2 ? b : a, `Wrong${i}pass`)),
    );
    for (const r of wrong) expect([401, 423]).toContain(r.status);
    // Five failures, however they interleaved: the right password is refused now, through either instance.
    expect((await login(a, u.password)).body).toEqual({ error: MESSAGES.login.locked });
    expect((await login(b, u.password)).status).toBe(423);
  });

  it.runIf(ON_POSTGRES)(
    "PostgreSQL: a write transaction held open on one instance does not hold up the other's writes",
    async () => {
      const [a, b] = await twoInstances();
      const author = await a.user(['admin']);
      const first = (await a.post(API_PATHS.posts, postInput({ title: 'Held open' }), author.token)).body;
      const second = (await b.post(API_PATHS.posts, postInput({ title: 'Written meanwhile' }), author.token))
        .body;
      const release = gate();
      const wrote = gate();
      // Instance a's transaction writes a comment and then stays open (as a slow writer would).
      const held = a.sql.transaction(async (tx) => {
        await tx.run(
          'INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
          [first.id, author.id, 'held', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
        );
        wrote.open();
        await release.opened;
      });
      await wrote.opened;
      try {
        // Through instance b meanwhile: a post, a comment on another post, a like, a registration.
        const started = Date.now();
        const answers = await Promise.all([
          b.post(API_PATHS.posts, postInput({ title: 'Not waiting' }), author.token),
          b.post(`${API_PATHS.posts}/${second.id}/comments`, { content: 'not waiting' }, author.token),
          b.post(`${API_PATHS.posts}/${second.id}/like`, undefined, author.token),
          b.post('/api/register', registration()),
        ]);
        expect(answers.map((r) => r.status)).toEqual([201, 201, 200, 201]);
        // With one lock for every write these would wait for the held transaction (released below).
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        release.open();
        await held;
      }
      expect(Number(await b.sql.value('SELECT comment_count FROM posts WHERE id = ?', [first.id]))).toBe(1);
    },
  );

  it.runIf(ON_POSTGRES)(
    'PostgreSQL: two transactions that deadlock are both done, the one chosen as victim run again',
    async () => {
      const sql = await database();
      await sql.run("INSERT INTO site_records (key, value) VALUES ('d:a', '0'), ('d:b', '0')");
      const attempts = { first: 0, second: 0 };
      const firstHolds = gate();
      const secondHolds = gate();
      // Each takes one row, waits until the other has taken the other row, then wants that one too.
      const crossing = (name: 'first' | 'second', mine: string, theirs: string) =>
        sql.transaction(async (tx) => {
          attempts[name] += 1;
          await tx.run(
            'UPDATE site_records SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = ?',
            [mine],
          );
          if (attempts[name] === 1) {
            (name === 'first' ? firstHolds : secondHolds).open();
            await (name === 'first' ? secondHolds : firstHolds).opened;
          }
          await tx.run(
            'UPDATE site_records SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = ?',
            [theirs],
          );
        });
      await Promise.all([crossing('first', 'd:a', 'd:b'), crossing('second', 'd:b', 'd:a')]);
      // PostgreSQL broke the deadlock by failing one (40P01); that one ran again after the other committed.
      expect(attempts.first + attempts.second).toBe(3);
      expect(await sql.column("SELECT value FROM site_records WHERE key LIKE 'd:%' ORDER BY key")).toEqual([
        '2',
        '2',
      ]);
    },
  );

  it('a conflict that stays (a unique value taken for good) reaches the caller after the retries', async () => {
    const sql = await database();
    await sql.run("INSERT INTO site_records (key, value) VALUES ('u:taken', '1')");
    let attempts = 0;
    await expect(
      sql.transaction(async (tx) => {
        attempts += 1;
        await tx.run("INSERT INTO site_records (key, value) VALUES ('u:taken', '2')");
      }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_PRIMARYKEY)$/) });
    // PostgreSQL tries a few times (another writer might have been in the way); SQLite's writers take turns.
    expect(attempts).toBe(ON_POSTGRES ? WRITE_ATTEMPTS : 1);
    expect(await sql.value("SELECT value FROM site_records WHERE key = 'u:taken'")).toBe('1');
  });
});
