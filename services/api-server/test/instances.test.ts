import { API_PATHS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { postInput, type TestServer, twoInstancesPerTest } from './helpers';

/**
 * Issue 12: several API instances on one database. Nothing one process keeps (the session cache, the list
 * cache) may make another instance wrong: each instance here has both caches on, warmed before the other
 * one writes.
 */
const pairOnOneDatabase = twoInstancesPerTest();
const twoInstances = (over: Partial<Config> = {}) =>
  pairOnOneDatabase({ sessionCacheMs: 60_000, listCacheSize: 1000, ...over });

describe('two API instances on one database', () => {
  it('a token revoked through one instance is refused by the other at once, though it had cached it', async () => {
    const [a, b] = await twoInstances();
    const member = await a.user([]);
    expect((await b.get(API_PATHS.profile, member.token)).status).toBe(200); // cached in b now
    expect((await a.post(API_PATHS.logout, undefined, member.token)).status).toBe(200);
    const after = await b.get(API_PATHS.profile, member.token);
    expect(after.status).toBe(401);
    expect(after.body.error).toBeTruthy();
  });

  it('a password change through one instance ends the other sessions on the other instance at once', async () => {
    const [a, b] = await twoInstances();
    const member = await a.user([]);
    const second = await b.post(API_PATHS.login, { username: member.email, password: member.password });
    expect((await b.get(API_PATHS.profile, second.body.token)).status).toBe(200);
    const change = await a.post(
      API_PATHS.changePassword,
      { currentPassword: member.password, newPassword: 'Another123x' },
      member.token,
    );
    expect(change.status).toBe(200);
    expect((await b.get(API_PATHS.profile, second.body.token)).status).toBe(401);
    expect((await b.get(API_PATHS.profile, member.token)).status).toBe(200);
  });

  it('a post written through one instance is listed by the other, whose list was cached before', async () => {
    const [a, b] = await twoInstances();
    const author = await a.user(['admin']);
    const before = await b.get(`${API_PATHS.posts}?limit=10`);
    expect(before.status).toBe(200);
    const created = await a.post(
      API_PATHS.posts,
      postInput({ title: 'Written through instance A' }),
      author.token,
    );
    expect(created.status).toBe(201);
    const listed = await b.get(`${API_PATHS.posts}?limit=10`);
    expect(listed.body.map((p: { title: string }) => p.title)).toContain('Written through instance A');
    expect(listed.body).toHaveLength(before.body.length + 1);
    // And deleting it through B takes it off A's cached list.
    expect((await a.get(`${API_PATHS.posts}?limit=10`)).body).toHaveLength(before.body.length + 1);
    expect((await b.del(`${API_PATHS.posts}/${created.body.id}`, author.token)).status).toBe(200);
    expect((await a.get(`${API_PATHS.posts}?limit=10`)).body).toHaveLength(before.body.length);
  });

  it('tag counts and the report read by one instance follow a write through the other at once', async () => {
    const [a, b] = await twoInstances();
    const author = await a.user(['admin']);
    const tagCount = async (s: TestServer) =>
      ((await s.get(API_PATHS.tags)).body as { name: string; count: number }[]).find(
        (t) => t.name === 'okapi',
      )?.count ?? 0;
    const published = async (s: TestServer) => (await s.get(API_PATHS.report)).body.published as number;
    // Both instances answer (and remember) the counts before the write.
    expect(await tagCount(b)).toBe(0);
    const reportBefore = await published(b);
    const created = await a.post(
      API_PATHS.posts,
      postInput({ title: 'Counted', tags: ['okapi'] }),
      author.token,
    );
    expect(created.status).toBe(201);
    expect(await tagCount(b)).toBe(1);
    expect(await published(b)).toBe(reportBefore + 1);
    // And through the same instance, at once.
    expect(await tagCount(a)).toBe(1);
    expect((await b.del(`${API_PATHS.posts}/${created.body.id}`, author.token)).status).toBe(200);
    expect(await tagCount(a)).toBe(0);
    expect(await tagCount(b)).toBe(0);
  });

  it('failed logins count across instances: the lockout holds on both', async () => {
    const [a, b] = await twoInstances({
      lockout: { maxAttempts: 3, windowMs: 60_000, durationMs: 60_000, addressMaxAttempts: 30 },
    });
    const member = await a.user([]);
    const wrong = { username: member.email, password: 'Wrong-pass-1' };
    expect((await a.post(API_PATHS.login, wrong)).status).toBe(401);
    expect((await b.post(API_PATHS.login, wrong)).status).toBe(401);
    expect((await a.post(API_PATHS.login, wrong)).status).toBe(423);
    const right = { username: member.email, password: member.password };
    for (const s of [a, b]) expect((await s.post(API_PATHS.login, right)).status).toBe(423);
  });

  it('concurrent writes through both instances all succeed: posts with one title, comments, likes', async () => {
    const [a, b] = await twoInstances();
    const author = await a.user(['admin']);
    const writes = Array.from({ length: 24 }, (_, i) =>
      (i % 2 ? a : b).post(API_PATHS.posts, postInput({ title: 'The same title' }), author.token),
    );
    const answers = await Promise.all(writes);
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((r) => r.body.slug)).size).toBe(24);
    const postId = answers[0]!.body.id;
    const more = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? (i % 4 ? a : b).post(
              `${API_PATHS.posts}/${postId}/comments`,
              { content: `Comment ${i}` },
              author.token,
            )
          : (i % 4 ? a : b).post(`${API_PATHS.posts}/${answers[i]!.body.id}/like`, undefined, author.token),
      ),
    );
    expect(more.map((r) => r.status).filter((st) => st >= 300)).toEqual([]);
  });
});
