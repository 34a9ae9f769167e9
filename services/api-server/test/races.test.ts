import { API_PATHS } from '@app/contracts';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { describe, expect, it } from 'vitest';
import type { OutboxRow } from '../src/mail/outbox';
import { MailSender } from '../src/mail/sender';
import { command, deployInstall, deployToken, release, withStable } from './deploy-fixtures';
import { postInput, type TestServer, twoInstancesPerTest } from './helpers';

/**
 * Issue 49: the read-then-write operations two API instances race on, each fired many times at once through
 * two instances on one database (SQLite: one file in WAL mode, as CLUSTER_DATABASE=sqlite runs; PostgreSQL:
 * one database), then the invariants read back from the database. PostgreSQL's writers run in parallel, with
 * no lock shared by every write (db/sql.ts, db/write-conflicts.ts): each operation carries its own protection.
 * A 5xx is an anomaly too: it is a race lost as an error (a unique violation, a deadlock) instead of handled.
 * The answers' statuses are soft assertions, so a failing run still checks (and reports) what the data became.
 */
const twoInstances = twoInstancesPerTest();

/** `n` calls through each instance, interleaved (a, b, a, b …), all started before any is awaited. */
function both<T>(a: TestServer, b: TestServer, n: number, call: (s: TestServer, i: number) => Promise<T>) {
  return Promise.all(Array.from({ length: 2 * n }, (_, i) => call(i % 2 ? b : a, i)));
}

const num = async (s: TestServer, text: string, params: unknown[] = []) =>
  Number(await s.sql.value(text, params));

describe('races between two API instances on one database', () => {
  it('slug taken: 25 posts of one title through each instance get distinct slugs, never a 5xx', async () => {
    const [a, b] = await twoInstances();
    const author = await a.user(['admin']);
    const answers = await both(a, b, 25, (s) =>
      s.post(API_PATHS.posts, postInput({ title: 'Racing for one slug' }), author.token),
    );
    // A creation may be refused with a clear 4xx (say 409, to retry), never fail as a 500.
    const statuses = answers.map((r) => r.status);
    expect.soft(statuses.filter((st) => st !== 201 && (st < 400 || st >= 500))).toEqual([]);
    const created = answers.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((r) => r.body.slug)).size).toBe(created.length);
    // What the database holds: one row per 201, each slug once.
    const rows = await a.sql.all<{ slug: string }>(
      "SELECT slug FROM posts WHERE title = 'Racing for one slug'",
    );
    expect(rows).toHaveLength(created.length);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
  });

  it('like/unlike: 3 users toggle one post 16 times each through both instances; counts match rows, none lost', async () => {
    const [a, b] = await twoInstances();
    const author = await a.user(['admin']);
    const post = (await a.post(API_PATHS.posts, postInput({ title: 'Liked in a race' }), author.token)).body;
    const users = [await a.user([]), await b.user([]), await a.user([])];
    const answers = await both(a, b, 24, (s, i) =>
      s.post(`${API_PATHS.posts}/${post.id}/like`, undefined, users[i % 3]!.token).then((r) => ({ r, i })),
    );
    expect.soft(answers.map(({ r }) => r.status).filter((st) => st !== 200)).toEqual([]);
    for (const [u, user] of users.entries()) {
      const rows = await num(a, 'SELECT COUNT(*) FROM post_likes WHERE post_id = ? AND user_id = ?', [
        post.id,
        user.id,
      ]);
      expect(rows).toBeLessThanOrEqual(1);
      // Toggles are taken one after the other: an even number of them (16 here) ends unliked.
      const toggles = answers.filter(({ r, i }) => i % 3 === u && r.status === 200).length;
      expect(rows, `user ${u}: ${toggles} toggles`).toBe(toggles % 2);
    }
    const likeRows = await num(a, 'SELECT COUNT(*) FROM post_likes WHERE post_id = ?', [post.id]);
    expect(await num(a, 'SELECT like_count FROM posts WHERE id = ?', [post.id])).toBe(likeRows);
    expect((await b.get(`${API_PATHS.posts}/${post.id}`)).body.likes).toBe(likeRows);
  });

  it('comment counts: 25 comments created through each instance while 20 others are deleted through both', async () => {
    const [a, b] = await twoInstances();
    const author = await a.user(['admin']);
    const post = (await a.post(API_PATHS.posts, postInput({ title: 'Commented in a race' }), author.token))
      .body;
    const path = `${API_PATHS.posts}/${post.id}/comments`;
    const old: number[] = [];
    for (let i = 0; i < 20; i++)
      old.push((await a.post(path, { content: `Old ${i}` }, author.token)).body.id);
    const answers = await Promise.all([
      both(a, b, 25, (s, i) => s.post(path, { content: `New ${i}` }, author.token)),
      // Each old comment deleted through both instances at once: one deletes it, the other may find it gone.
      both(a, b, 20, (s, i) => s.del(`/api/comments/${old[i >> 1]}`, author.token)),
    ]);
    const statuses = answers.flat().map((r) => r.status);
    expect.soft(statuses.filter((st) => ![200, 201, 404].includes(st))).toEqual([]);
    const rows = await num(a, 'SELECT COUNT(*) FROM comments WHERE post_id = ?', [post.id]);
    expect(rows).toBe(50);
    expect(await num(a, 'SELECT comment_count FROM posts WHERE id = ?', [post.id])).toBe(rows);
    expect((await b.get(`${API_PATHS.posts}/${post.id}`)).body.comment_count).toBe(rows);
    expect((await a.get(path)).body).toHaveLength(rows);
  });

  it('deploy compare-and-swap: 20 changes with one If-Match through each instance; one wins, 39 get 412', async () => {
    const [a, b] = await twoInstances(deployInstall());
    const token = await deployToken(a, 'ops');
    let { revision } = await withStable(a, token, 'staging', 'mf-research');
    const canary = await release(a, 'mf-research');
    revision = (
      await command(a, token, 'staging', 'mf-research', 'start', { version: canary, percent: 1 }, revision)
    ).body.revision;
    for (let round = 0; round < 3; round++) {
      const audit = await num(a, 'SELECT COUNT(*) FROM deploy_audit');
      const answers = await both(a, b, 20, (s, i) =>
        command(
          s,
          token,
          'staging',
          'mf-research',
          'set',
          { percent: 2 + ((i + round * 40) % 97) },
          revision,
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(
        statuses.filter((st) => st === 200),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(
        statuses.filter((st) => st === 412),
        JSON.stringify(answers.find((r) => r.status !== 200 && r.status !== 412)?.body),
      ).toHaveLength(39);
      // The revision went up once, and the losers were told the winner's.
      for (const r of answers) if (r.status === 412) expect(r.body.revision).toBe(revision + 1);
      revision += 1;
      expect((await b.get(DEPLOY_PATHS.environment('staging'), token)).body.revision).toBe(revision);
      expect(await num(a, 'SELECT COUNT(*) FROM deploy_audit')).toBe(audit + 1);
    }
  });

  it('outbox claims: 3 senders in each instance empty one outbox of 60 mails; each is sent exactly once', async () => {
    const [a, b] = await twoInstances();
    const t = a.ctx.now();
    await a.sql.transaction(async (tx) => {
      for (let i = 0; i < 60; i++) {
        await tx.run(
          `INSERT INTO outbox (kind, to_address, subject, text_body, html_body, sealed_secret, created_at, status,
             attempts, next_attempt_at) VALUES ('test', ?, 'Race', 'Text', '<p>Html</p>', NULL, ?, 'pending', 0, ?)`,
          [`race${i}@example.com`, t, t],
        );
      }
    });
    const sent: number[] = [];
    // A delivery that takes a moment, so the senders' rounds overlap and each claims while others hold rows.
    const deliver = async (row: OutboxRow) => {
      sent.push(Number(row.id));
      await new Promise((r) => setTimeout(r, 2));
    };
    const senders = [a, b, a, b, a, b].map((s) => new MailSender(s.ctx.outbox, s.ctx.config.mail, deliver));
    await Promise.all(senders.map((s) => s.kick()));
    // Each sender's round ends when its claim comes back short; one more round each finds nothing left.
    await Promise.all(senders.map((s) => s.kick()));
    await Promise.all(senders.map((s) => s.stop()));
    expect(sent).toHaveLength(60);
    expect(new Set(sent).size).toBe(60);
    expect(await num(a, "SELECT COUNT(*) FROM outbox WHERE status = 'sent' AND attempts = 1")).toBe(60);
    expect(await num(a, 'SELECT COUNT(*) FROM outbox_attempts WHERE ok = TRUE')).toBe(60);
  });
});
