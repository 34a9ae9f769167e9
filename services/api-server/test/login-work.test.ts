import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

/**
 * An unknown email must cost the same work as a wrong password, or the answer's timing tells which emails
 * have accounts. Timing it on a shared machine is noise; counting the argon2 verifications is exact: each
 * refused login runs one, against a hash of the same cost.
 */
const verified = vi.hoisted(() => [] as string[]);
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (hash: string, ...rest: unknown[]) => {
      verified.push(hash);
      return (real.verify as (...args: unknown[]) => Promise<boolean>)(hash, ...rest);
    },
  };
});

/** The argon2 parameters of a PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash): what the verification costs. */
const costOf = (phc: string) => phc.split('$').slice(1, 4).join('$');

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ argon2: { memoryCost: 19456, timeCost: 2, parallelism: 1 } });
});
afterAll(() => s.close());

describe('a refused login', () => {
  it('verifies one argon2 hash of the same cost for an unknown email as for a wrong password', async () => {
    const u = await s.user();
    verified.length = 0;
    const known = await s.post('/api/login', { username: u.email, password: 'Wrong123x' });
    expect(verified).toHaveLength(1);
    const unknown = await s.post('/api/login', { username: 'ghost@example.com', password: 'Wrong123x' });
    expect(verified).toHaveLength(2);
    expect([known.status, known.body]).toEqual([unknown.status, unknown.body]);
    const [ofKnown, ofUnknown] = verified as [string, string];
    expect(costOf(ofKnown)).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1$/);
    expect(costOf(ofUnknown)).toBe(costOf(ofKnown));
    // The unknown email is checked against the dummy hash, not against some account's.
    expect(ofUnknown).not.toBe(ofKnown);
  });
});
