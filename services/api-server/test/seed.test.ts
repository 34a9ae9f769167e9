// Seeding (issue 49, "Seed data is data"): what the demo seed writes, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext, seed } from '../src/context';
import { testConfig } from './helpers';
import { dumpSeeded } from './seed-dump';

/** One fixed clock: the demo posts' dates are counted back from the start. */
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
/**
 * What the seed wrote before its content moved into data files (pinned from the code of that time, on
 * SQLite). `UPDATE_SEED_PIN=1` rewrites it: only when the demo content is meant to change.
 */
const PINNED = path.join(import.meta.dirname, 'seed-content.json');

describe('the demo seed', () => {
  it('writes exactly the pinned content into a new database', async () => {
    const ctx = await createContext(testConfig({ seedDemo: true }), () => NOW);
    try {
      await seed(ctx);
      const dump = await dumpSeeded(ctx.sql);
      if (process.env.UPDATE_SEED_PIN === '1') {
        fs.writeFileSync(PINNED, `${JSON.stringify(dump, null, 2)}\n`);
      }
      expect(dump).toEqual(JSON.parse(fs.readFileSync(PINNED, 'utf8')));
    } finally {
      await ctx.close();
    }
  });
});
