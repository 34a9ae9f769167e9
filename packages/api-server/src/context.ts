import type { Config } from './config';
import { type DB, migrate, openDatabase } from './db/database';
import { ReadPool } from './db/read-pool';
import { seedBase, seedDemo } from './db/seed';
import { SqliteRateLimitStore } from './rate-limit/sqlite-store';
import type { RateLimitStore } from './rate-limit/store';
import { AccountService } from './services/accounts';
import { PostService } from './services/posts';
import { RolloutService } from './services/rollout';
import { SiteService } from './services/site';

/** Everything a request handler or the CLI needs: one database and the services over it. */
export interface AppContext {
  config: Config;
  db: DB;
  accounts: AccountService;
  posts: PostService;
  site: SiteService;
  rollout: RolloutService;
  /** Rate-limit counters, in the database so every instance shares them (issue 19). */
  rateLimits: RateLimitStore;
  /** The clock of the rate limits and the repeat-assessment window (tests move it). */
  now: () => number;
  close(): void;
}

export function createContext(config: Config, now: () => number = Date.now): AppContext {
  const db = openDatabase(config.dbPath);
  migrate(db);
  const accounts = new AccountService(db, config);
  // Search runs on worker threads (their own read-only connections); an in-memory database cannot be shared.
  const searchPool =
    config.searchWorkers > 0 && config.dbPath !== ':memory:'
      ? new ReadPool(config.dbPath, config.searchWorkers)
      : null;
  const posts = new PostService(db, searchPool);
  const site = new SiteService(db);
  const rollout = new RolloutService(db, config.rollout);
  return {
    config,
    db,
    accounts,
    posts,
    site,
    rollout,
    rateLimits: new SqliteRateLimitStore(db),
    now,
    close: () => {
      void searchPool?.close();
      if (db.open) db.close();
    },
  };
}

/** The base records always; demo posts on the first start when enabled. */
export async function seed(ctx: AppContext): Promise<void> {
  seedBase(ctx.db, ctx.config, ctx.site);
  if (ctx.config.seedDemo) await seedDemo(ctx.db, ctx.config, ctx);
}
