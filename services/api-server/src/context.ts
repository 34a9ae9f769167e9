import type { Clock } from './clock';
import type { Config } from './config';
import { migrate, openDatabase } from './db/database';
import { ReadPool } from './db/read-pool';
import type { Sql } from './db/sql';
import { Mailer } from './mail/mailer';
import { Outbox } from './mail/outbox';
import { SqlRateLimitStore } from './rate-limit/sql-store';
import type { RateLimitStore } from './rate-limit/store';
import { accountSecret, SecretBox } from './secret-box';
import { AccountService } from './services/accounts';
import { AdminAudit } from './services/admin-audit';
import { CompatibilityService } from './services/deploy-compat';
import { OverrideUses } from './services/deploy-override-uses';
import { OverrideService } from './services/deploy-overrides';
import { PreviewService } from './services/deploy-previews';
import { DeployTokenService } from './services/deploy-tokens';
import { DeploymentService } from './services/deployments';
import { PostService } from './services/posts';
import { RolloutService } from './services/rollout';
import { SiteService } from './services/site';

/** The base records always; demo posts on the first start when enabled (db/seed.ts). */
export { seed } from './db/seed';

/** Everything a request handler or the CLI needs: one database and the services over it. */
export interface AppContext {
  config: Config;
  sql: Sql;
  accounts: AccountService;
  posts: PostService;
  site: SiteService;
  rollout: RolloutService;
  /** Deploy tokens (issue 33): who may change which remote's deployment where. */
  deployTokens: DeployTokenService;
  /** Each environment's deployment manifest, changed by compare-and-swap (issue 33). */
  deployments: DeploymentService;
  /** The compatibility gate against what is live in each environment (issue 45). */
  compatibility: CompatibilityService;
  /** Each environment's preview links, stored and revocable (issue 44). */
  previews: PreviewService;
  overrides: OverrideService;
  /** What edges report of the override links' use: counted on the link, opens and Exit audited (issue 47). */
  overrideUses: OverrideUses;
  /** Every mail the product sends, as rows (issue 34); the server's MailSender delivers them. */
  outbox: Outbox;
  mailer: Mailer;
  /** What administrators did in the browser (issue 34), written in the same transaction as the change. */
  audit: AdminAudit;
  /** Rate-limit counters, in the database so every instance shares them (issue 19). */
  rateLimits: RateLimitStore;
  /** Seals account secrets at rest: outbox tokens, TOTP secrets (src/secret-box.ts, issue 46). */
  secrets: SecretBox;
  /** The API's one clock (src/clock.ts): sessions, lockout, resets, outbox, limits, deploys; tests step it. */
  now: Clock;
  /** Runs `fn` first when the context closes (the deployment feed ends its waits). */
  onClose(fn: () => void): void;
  close(): Promise<void>;
}

/** Opens and migrates the database and builds the services over it. */
export async function createContext(config: Config, now: Clock = Date.now): Promise<AppContext> {
  const sql = openDatabase(config);
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  const secrets = SecretBox.fromSecret(accountSecret(config.accountSecret, config.dbPath));
  const outbox = new Outbox(sql, config.mail, now, secrets);
  const mailer = new Mailer(outbox, config, now);
  const accounts = new AccountService(sql, config, mailer, now, secrets);
  // On SQLite, search runs on worker threads (their own read-only connections; an in-memory database cannot
  // be shared). PostgreSQL does the work in its own processes: the event loop only waits for the answer.
  const searchPool =
    sql.dialect === 'sqlite' && config.searchWorkers > 0 && config.dbPath !== ':memory:'
      ? new ReadPool(config.dbPath, config.searchWorkers)
      : null;
  const posts = new PostService(sql, searchPool, config.searchCacheSize, now);
  await posts.init();
  const site = new SiteService(sql, mailer);
  const deployments = new DeploymentService(sql, config.rollout.paths.store, now);
  const previews = new PreviewService(sql, deployments, config.rollout.paths.store, now);
  const compatibility = new CompatibilityService(sql, deployments, {
    store: config.rollout.paths.store,
    shellManifest: config.deploy.shellManifest,
    environments: config.deploy.environments,
    now,
  });
  const rollout = new RolloutService(
    sql,
    config.rollout,
    deployments,
    previews,
    compatibility,
    config.deploy.environment,
    now,
  );
  const closers: Array<() => void> = [];
  return {
    config,
    sql,
    accounts,
    posts,
    site,
    rollout,
    deployTokens: new DeployTokenService(sql, config.deploy.environments, now),
    deployments,
    compatibility,
    previews,
    overrides: new OverrideService(sql, previews, config.deploy.overrideOrigins, now),
    overrideUses: new OverrideUses(sql, now),
    outbox,
    mailer,
    audit: new AdminAudit(sql, now),
    secrets,
    rateLimits: new SqlRateLimitStore(sql),
    now,
    onClose: (fn) => closers.push(fn),
    close: async () => {
      for (const fn of closers.splice(0)) fn();
      await searchPool?.close();
      await sql.close();
    },
  };
}
