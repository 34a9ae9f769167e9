import { API_PATHS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli';
import { limitsWith, registration, startTestServer, type TestServer } from './helpers';
import { from } from './rate-limit-fixtures';

let s: TestServer;
const FLOOD = '198.51.100.66';
const NEIGHBOUR = '198.51.100.67';

beforeAll(async () => {
  s = await startTestServer({
    trustedProxies: ['127.0.0.1'],
    rateLimits: limitsWith({ register: { limit: 3, windowMs: 3_600_000 } }),
  });
  // The CLI opens the database the way the server does: DATABASE_URL, else DB_PATH.
  process.env.DB_PATH = s.ctx.config.dbPath;
  if (s.ctx.config.databaseUrl) process.env.DATABASE_URL = s.ctx.config.databaseUrl;
});
afterAll(async () => {
  delete process.env.DB_PATH;
  delete process.env.DATABASE_URL;
  await s.close();
});

async function cli(...args: string[]): Promise<string> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    expect(await runCli(args)).toBe(0);
  } finally {
    log.mockRestore();
  }
  return lines.join('\n');
}

describe('pnpm admin: limited and bulk rejection of pending registrations', () => {
  it('shows what was limited: limit, address, count, route', async () => {
    for (let i = 0; i < 5; i++) {
      await s.req('POST', API_PATHS.register, { body: registration(), headers: from(FLOOD) });
    }
    const out = await cli('limited');
    expect(out).toMatch(new RegExp(`register\\s+2\\s+${FLOOD.replaceAll('.', '\\.')}\\s+POST /api/register`));
  });

  it('rejects every pending registration from one address, never an active account', async () => {
    const active = registration();
    await s.req('POST', API_PATHS.register, { body: active, headers: from(NEIGHBOUR) });
    await s.req('POST', API_PATHS.register, { body: registration(), headers: from(NEIGHBOUR) });
    const activeId = (await s.ctx.accounts.resolveUser(active.email))!.id;
    await s.ctx.accounts.activate(activeId);
    const promoted = (await s.sql.value<number>('SELECT id FROM users WHERE registered_from = ?', [FLOOD]))!;
    await s.ctx.accounts.activate(promoted);

    expect(await cli('pending-by-address')).toMatch(/2\s+198\.51\.100\.66/);
    // Without --yes it only lists.
    expect(await cli('reject-pending', '--from', FLOOD)).toMatch(
      /2 pending registration\(s\) from 198\.51\.100\.66/,
    );
    expect(await s.ctx.accounts.listUsers('pending')).toHaveLength(3);
    expect(await cli('reject-pending', '--from', FLOOD, '--yes')).toBe(
      'Rejected 2 pending registration(s) from 198.51.100.66.',
    );
    const left = (await s.ctx.accounts.listUsers('all')).map((u) => u.id);
    expect(left).toContain(promoted);
    expect(left).toContain(activeId);
    expect(await s.ctx.accounts.listUsers('pending')).toHaveLength(1); // the neighbour's, another address
  });
});
