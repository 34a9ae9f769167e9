import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { postInput, startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Whatever JSON (or non-JSON) a client sends to a write route, the answer is never a 5xx.
 */
let s: TestServer;
let user: TestUser;
let admin: TestUser;
let postId = 0;
let commentId = 0;
beforeAll(async () => {
  s = await startTestServer({
    lockout: { maxAttempts: 1000, windowMs: 1000, durationMs: 1, addressMaxAttempts: 100_000 },
  });
  user = await s.user();
  admin = await s.user(['admin']);
  postId = (await s.post('/api/posts', postInput(), user.token)).body.id;
  commentId = (await s.post(`/api/posts/${postId}/comments`, { content: 'c' }, user.token)).body.id;
});
afterAll(() => s.close());

type Who = 'guest' | 'user' | 'admin';
// [method, path with :post/:comment/:user placeholders, who calls]
const ROUTES: [string, string, Who][] = [
  ['POST', '/api/register', 'guest'],
  ['POST', '/api/login', 'guest'],
  ['POST', '/api/logout', 'user'],
  ['PUT', '/api/profile', 'user'],
  ['PUT', '/api/preferences', 'user'],
  ['PUT', '/api/account/change-password', 'user'],
  ['POST', '/api/account/change-password', 'user'],
  ['POST', '/api/posts', 'user'],
  ['PUT', '/api/posts/:post', 'user'],
  ['DELETE', '/api/posts/999999', 'user'],
  ['PUT', '/api/posts/:post/publish', 'user'],
  ['PUT', '/api/posts/:post/visibility', 'user'],
  ['POST', '/api/posts/:post/like', 'user'],
  ['POST', '/api/posts/:post/comments', 'user'],
  ['PUT', '/api/comments/:comment', 'user'],
  ['POST', '/api/comments/:comment/like', 'user'],
  ['DELETE', '/api/comments/999999', 'user'],
  ['POST', '/api/market-assessment', 'guest'],
  ['POST', '/api/admin/users/:user/activate', 'admin'],
  ['POST', '/api/admin/users/:user/roles', 'admin'],
  ['DELETE', '/api/admin/users/:user/roles/paid-tier-1', 'admin'],
];
const resolve = (path: string) =>
  path
    .replace(':post', String(postId))
    .replace(':comment', String(commentId))
    .replace(':user', String(user.id));
const tokenOf = (who: Who) => (who === 'guest' ? null : who === 'user' ? user.token : admin.token);

// Bodies shaped like the real ones, with fields swapped for arbitrary values, find more than pure noise.
const keys = [
  'username',
  'password',
  'email',
  'name',
  'address',
  'title',
  'content',
  'summary',
  'visibility',
  'status',
  'tags',
  'categories',
  'content_type',
  'currentPassword',
  'newPassword',
  'emailOptIn',
  'notifications',
  'theme',
  'role',
  'companySize',
  'primaryChallenges',
  'intelligenceTopics',
];
const shaped = fc.dictionary(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  shaped.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
);

describe('no 5xx for any body', () => {
  it.each(ROUTES)('%s %s', async (method, path, who) => {
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        const r = await s.req(method, resolve(path), { rawBody: raw, token: tokenOf(who) });
        if (r.status >= 500)
          throw new Error(`${method} ${path} ${raw} -> ${r.status} ${JSON.stringify(r.body)}`);
        if (path === '/api/logout' && r.status === 200) {
          // The logout worked: log back in for the next run.
          user.token = (
            await s.post('/api/login', { username: user.email, password: user.password })
          ).body.token;
        }
      }),
      { numRuns: 40 },
    );
  });

  it('account deletion with any body', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('POST', 'DELETE'), async (raw, method) => {
        const victim = await s.user();
        const r = await s.req(method, '/api/account/delete', { rawBody: raw, token: victim.token });
        if (r.status >= 500) throw new Error(`${method} delete ${raw} -> ${r.status}`);
      }),
      { numRuns: 15 },
    );
  });
});
