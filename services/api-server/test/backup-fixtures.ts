import { expect } from 'vitest';
import { postInput, type TestServer } from './helpers';

/**
 * Something of everything a backup must carry, written through the API on top of the demo content: two
 * users and their sessions, a post, a comment, a like of each and the rate-limit counters of those writes.
 * Both databases' round-trip tests start from it.
 */
export async function fillForBackup(s: TestServer) {
  const author = await s.user([], 'author');
  const reader = await s.user([], 'reader');
  const post = await s.post(
    '/api/posts',
    postInput({ title: 'Ocelot migration patterns', content: 'The quetzalcoatl report.' }),
    author.token,
  );
  expect(post.status).toBe(201);
  const comment = await s.post(
    `/api/posts/${post.body.id}/comments`,
    { content: 'Great read' },
    reader.token,
  );
  expect(comment.status).toBe(201);
  expect((await s.post(`/api/posts/${post.body.id}/like`, undefined, reader.token)).body.liked).toBe(true);
  expect((await s.post(`/api/comments/${comment.body.id}/like`, undefined, author.token)).status).toBe(200);
  for (const table of [
    'users',
    'sessions',
    'posts',
    'comments',
    'post_likes',
    'comment_likes',
    'rate_limit_counters',
  ]) {
    expect(await s.sql.value(`SELECT COUNT(*) FROM ${table}`), table).toBeGreaterThan(0);
  }
  return { author, reader, post: post.body as { id: number }, comment: comment.body as { id: number } };
}

/**
 * After the backup: a delete, a new post, a new user, a logout and direct changes, so the live database
 * differs from the backup in every way a restore must undo. Returns the titles Home's list shows now, read
 * once so the server's list cache holds them.
 */
export async function changeAfterBackup(s: TestServer, f: Awaited<ReturnType<typeof fillForBackup>>) {
  expect((await s.del(`/api/posts/${f.post.id}`, f.author.token)).status).toBe(200);
  await s.post('/api/posts', postInput({ title: 'Written after the backup' }), f.author.token);
  await s.user([], 'latecomer');
  expect((await s.post('/api/logout', undefined, f.reader.token)).status).toBe(200);
  await s.sql.run('DELETE FROM rate_limit_counters');
  await s.sql.run(
    "UPDATE site_records SET value = 'changed' WHERE key = (SELECT MIN(key) FROM site_records)",
  );
  expect(await listedTitles(s)).toContain('Written after the backup');
}

/** The titles of the first 100 posts of the list, as the server answers them. */
export const listedTitles = async (s: TestServer): Promise<string[]> =>
  (await s.get('/api/posts?limit=100')).body.map((p: { title: string }) => p.title);
