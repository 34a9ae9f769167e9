import type { Table } from './types';
import { bigint, bool, id, int, json, nullable, real, text, time } from './types';

/**
 * The remotes' delivery: deploy tokens, releases, each environment's deployment and its audit, preview and override links, the health gate's signals and render figures.
 * The schema as migrations 1 to 28 left it, on both engines (docs/decisions/0047-one-schema.md): never edited;
 * a later migration's changes (changes.ts) are applied on top of it.
 */
export const TABLES_DELIVERY: Record<string, Table> = {
  deploy_tokens: {
    columns: {
      id: id(),
      name: text({ unique: true }),
      token_hash: text({ unique: true }),
      admin: bool({ default: false }),
      remotes: text({ default: '' }),
      environments: text({ default: '' }),
      created_at: time(),
      created_by: text(),
      revoked_at: nullable(time()),
      last_used_at: nullable(time()),
    },
  },
  deploy_releases: {
    primaryKey: ['remote', 'version'],
    columns: {
      remote: text(),
      version: text(),
      content_hash: text(),
      entry_integrity: nullable(text()),
      info_json: json(),
      created_at: time(),
    },
  },
  deployments: {
    primaryKey: ['environment'],
    columns: {
      environment: text(),
      revision: int(),
      manifest_json: json(),
      updated_at: nullable(time()),
    },
  },
  deploy_audit: {
    columns: {
      id: id(),
      environment: text(),
      at: time(),
      actor: text(),
      token_name: nullable(text()),
      action: text(),
      remote: text(),
      from_state: nullable(text()),
      to_state: nullable(text()),
      reason: nullable(text()),
      forced: bool({ default: false }),
    },
  },
  deploy_previews: {
    primaryKey: ['id'],
    columns: {
      id: text(),
      token_hash: text({ unique: true }),
      environment: text(),
      remote: text(),
      version: text(),
      integrity: text(),
      created_at: time(),
      expires_at: time(),
      created_by: text(),
      revoked_at: nullable(time()),
      revoked_by: nullable(text()),
    },
  },
  deploy_preview_revisions: {
    primaryKey: ['environment'],
    columns: {
      environment: text(),
      revision: int(),
    },
  },
  deploy_overrides: {
    primaryKey: ['id'],
    columns: {
      id: text(),
      token_hash: text({ unique: true }),
      environment: text(),
      remote: text(),
      url: text(),
      created_at: time(),
      expires_at: time(),
      created_by: text(),
      revoked_at: nullable(time()),
      revoked_by: nullable(text()),
      opens: int({ default: 0 }),
      page_views: int({ default: 0 }),
      last_used_at: nullable(time()),
    },
  },
  rollout_health_signals: {
    columns: {
      id: id(),
      remote: text(),
      version: text(),
      track: text(),
      kind: text(),
      value: nullable(real()),
      visitor: text(),
      ticket: text(),
      at: bigint(),
      environment: text(),
      address: nullable(text()),
    },
  },
  rollout_health_refusals: {
    primaryKey: ['reason', 'minute'],
    columns: {
      reason: text(),
      minute: bigint(),
      count: int(),
    },
  },
  rollout_render_figures: {
    primaryKey: ['environment', 'remote', 'version', 'track', 'minute'],
    columns: {
      environment: text(),
      remote: text(),
      version: text(),
      track: text(),
      minute: bigint(),
      renders: bigint(),
      failures: bigint(),
      slow: bigint(),
      duration_ms: real(),
    },
  },
  rollout_render_batches: {
    primaryKey: ['id'],
    columns: {
      id: text(),
      at: bigint(),
    },
  },
};
