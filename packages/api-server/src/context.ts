import type { Config } from './config';
import { type DB, migrate, openDatabase } from './db/database';
import { ReadPool } from './db/read-pool';
import { seedBase, seedDemo } from './db/seed';
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
  close(): void;
}

export function createContext(config: Config): AppContext {
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
