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
