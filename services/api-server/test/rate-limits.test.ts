import { API_PATHS, RATE_LIMIT_MESSAGES, rateLimitMessage } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsWith, type Res, registration, startTestServer, type TestServer } from './helpers';
import { assessment, freshAddress, from, member, somePost, testClock } from './rate-limit-fixtures';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const clock = testClock();
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(
    {
      // The test client is the "proxy": its X-Forwarded-For names the client (see the forged-header tests).
      trustedProxies: ['127.0.0.1', '::1'],
      rateLimits: limitsWith({
        register: { limit: 3, windowMs: HOUR },
        login: { limit: 3, windowMs: MINUTE },
        assessment: { limit: 3, windowMs: HOUR },
        anonymous: { limit: 3, windowMs: MINUTE },
        post: { limit: 3, windowMs: HOUR },
        comment: { limit: 3, windowMs: 10 * MINUTE },
        like: { limit: 3, windowMs: 10 * MINUTE },
        account: { limit: 3, windowMs: HOUR },
      }),
    },
    clock.now,
  );
});
afterAll(() => s.close());

function expectLimited(r: Res, what: string, windowMs: number) {
  expect(r.status).toBe(429);
  expect(r.headers.get('retry-after')).toBe(String(windowMs / 1000));
  expect(r.body).toEqual({ error: rateLimitMessage(what, windowMs / 1000) });
}

/** Each address limit: `send(address, i)` makes the i-th request of one client. */
const addressLimits: [string, string, number, (address: string, i: number) => Promise<Res>][] = [
  [
    'register',
    RATE_LIMIT_MESSAGES.register,
    HOUR,
    (address) => s.req('POST', API_PATHS.register, { body: registration(), headers: from(address) }),
  ],
  [
    'login (one password tried against many accounts)',
    RATE_LIMIT_MESSAGES.login,
    MINUTE,
    (address, i) =>
      s.req('POST', API_PATHS.login, {
        body: { username: `victim${i}@example.com`, password: 'Guess123x' },
        headers: from(address),
      }),
  ],
  [
    'market assessment',
    RATE_LIMIT_MESSAGES.assessment,
    HOUR,
    (address, i) =>
      s.req('POST', API_PATHS.marketAssessment, {
        body: assessment(`lead${i}-${address}@example.com`),
        headers: from(address),
      }),
  ],
  [
    'other unauthenticated writes (preview check)',
    RATE_LIMIT_MESSAGES.anonymous,
    MINUTE,
    (address) =>
      s.req('POST', API_PATHS.rolloutPreview, { body: { token: 'not-a-token' }, headers: from(address) }),
  ],
];

describe.each(addressLimits)('per address: %s', (_name, what, windowMs, send) => {
  it('refuses the request after the limit with 429, Retry-After and an error in words', async () => {
    const address = freshAddress();
    for (let i = 0; i < 3; i++) expect((await send(address, i)).status).toBeLessThan(429);
    expectLimited(await send(address, 3), what, windowMs);
    // Another client is not affected.
    expect((await send(freshAddress(), 0)).status).toBeLessThan(429);
    // The window ends: the same client is served again.
    clock.advance(windowMs);
    expect((await send(address, 4)).status).toBeLessThan(429);
  });
});

describe('per address: what over the limit does not do', () => {
  it('a refused registration stores nothing; the stored ones record their address', async () => {
    const address = freshAddress();
    const regs = Array.from({ length: 5 }, () => registration());
    const answers = [];
    for (const body of regs)
      answers.push(await s.req('POST', API_PATHS.register, { body, headers: from(address) }));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 429, 429]);
    const stored = await s.sql.column('SELECT registered_from FROM users WHERE registered_from = ?', [
      address,
    ]);
    expect(stored).toEqual([address, address, address]);
    expect(await s.ctx.accounts.resolveUser(regs[3]!.email)).toBeUndefined();
  });

  it('login over the limit is refused even with the right password', async () => {
    const m = await member(s);
    const address = freshAddress();
    for (let i = 0; i < 3; i++) {
      await s.req('POST', API_PATHS.login, {
        body: { username: `nobody${i}@example.com`, password: 'Guess123x' },
        headers: from(address),
      });
    }
    const email = (await s.ctx.accounts.profile(m.id)).email;
    const r = await s.req('POST', API_PATHS.login, {
      body: { username: email, password: 'Secret123x' },
      headers: from(address),
    });
    expect(r.status).toBe(429);
  });

  it('reads are never limited', async () => {
    const address = freshAddress();
    for (let i = 0; i < 6; i++) {
      expect((await s.req('GET', API_PATHS.posts, { headers: from(address) })).status).toBe(200);
    }
  });

  it('the operator sees what was refused: limit, address, route, how often', async () => {
    const address = freshAddress();
    for (let i = 0; i < 5; i++) {
      await s.req('POST', API_PATHS.register, { body: registration(), headers: from(address) });
    }
    const row = (await s.ctx.rateLimits.refusals(0)).find((r) => r.subject === address);
    expect(row).toMatchObject({ limit: 'register', route: 'POST /api/register', count: 2 });
  });
});

/** Each account limit: `send(token, i)` makes the i-th request of one member. */
const accountLimits: [string, string, number, (token: string, i: number) => Promise<Res>][] = [
  ['posts', RATE_LIMIT_MESSAGES.post, HOUR, (token) => s.post(API_PATHS.posts, { title: 'T' }, token)],
  [
    'comments',
    RATE_LIMIT_MESSAGES.comment,
    10 * MINUTE,
    async (token, i) => s.post(`/api/posts/${await postId()}/comments`, { content: `Comment ${i}` }, token),
  ],
  [
    'likes',
    RATE_LIMIT_MESSAGES.like,
    10 * MINUTE,
    async (token) => s.post(`/api/posts/${await postId()}/like`, undefined, token),
  ],
  [
    'profile and password changes',
    RATE_LIMIT_MESSAGES.account,
    HOUR,
    (token, i) =>
      i % 2
        ? s.put(API_PATHS.changePassword, { currentPassword: 'Wrong123x', newPassword: 'Other123x' }, token)
        : s.put(API_PATHS.profile, { name: { first: `Name${i}`, last: '' } }, token),
  ],
];

let sharedPost: number | undefined;
const postId = async () => {
  sharedPost ??= await somePost(s);
  return sharedPost;
};

describe.each(accountLimits)('per account: %s', (_name, what, windowMs, send) => {
  it('refuses the request after the limit; other members and the next window are served', async () => {
    const [a, b] = [await member(s), await member(s)];
    for (let i = 0; i < 3; i++) expect((await send(a.token, i)).status).toBeLessThan(429);
    expectLimited(await send(a.token, 3), what, windowMs);
    expect((await send(b.token, 0)).status).toBeLessThan(429);
    clock.advance(windowMs);
    expect((await send(a.token, 4)).status).toBeLessThan(429);
  });
});

it('the account limit follows the account, not the address', async () => {
  const a = await member(s);
  for (let i = 0; i < 3; i++) {
    await s.req('POST', API_PATHS.posts, {
      body: { title: 'T' },
      token: a.token,
      headers: from(freshAddress()),
    });
  }
  const r = await s.req('POST', API_PATHS.posts, {
    body: { title: 'T' },
    token: a.token,
    headers: from(freshAddress()),
  });
  expect(r.status).toBe(429);
  expect((await s.ctx.rateLimits.refusals(0)).find((x) => x.subject === `account:${a.id}`)?.limit).toBe(
    'post',
  );
});
