import {
  type AdminRollouts,
  AdminRolloutsSchema,
  AuditEntrySchema,
  type PreviewGrant,
  type RolloutHealthReport,
} from '@app/contracts';
import type { RemotePackage } from '@app/rollout';
import {
  checkPreview,
  isReleased,
  readAuditLog,
  readManifestFile,
  readPreviewSecret,
} from '@app/rollout/node';
import * as v from 'valibot';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { RolloutHealthService } from './rollout-health';
import { ROLLOUT_MESSAGES as M } from './rollout-messages';

/** A secret found on disk is trusted this long; a missing one is looked for again on every request. */
const SECRET_CACHE_MS = 5000;
const AUDIT_LIMIT = 100;

/**
 * Staged rollouts as the API sees them: health reports of released versions, preview-link verification and
 * the admin view. Releases and deployment files belong to the rollout CLI (@app/rollout); this only reads them.
 */
export class RolloutService {
  readonly health: RolloutHealthService;
  /** Releases are immutable, so a version once found stays released; unknown ones are checked each time. */
  private readonly released = new Set<string>();
  private secret: { value: string; until: number } | null = null;

  constructor(
    sql: Sql,
    private readonly config: Config['rollout'],
  ) {
    this.health = new RolloutHealthService(sql);
  }

  isReleased(remote: RemotePackage, version: string): boolean {
    const key = `${remote}/${version}`;
    if (this.released.has(key)) return true;
    if (!isReleased(this.config.paths.store, remote, version)) return false;
    this.released.add(key);
    return true;
  }

  /** Stores one validated report; a version never released for that remote is refused. */
  async report(report: RolloutHealthReport): Promise<void> {
    if (!this.isReleased(report.remote, report.version)) throw new HttpError(400, M.unknownRelease);
    await this.health.record(report);
  }

  private previewSecret(now: number): string | null {
    if (this.secret && this.secret.until > now) return this.secret.value;
    const value = readPreviewSecret(this.config.paths, {
      ROLLOUT_PREVIEW_SECRET: this.config.previewSecret ?? undefined,
    });
    this.secret = value ? { value, until: now + SECRET_CACHE_MS } : null;
    return value;
  }

  /** For the shell where no edge opened the link (docs/decisions/0026-edge.md): the same check as the edge's. */
  verifyPreview(token: string, now = Date.now()): PreviewGrant {
    const checked = checkPreview(token, {
      store: this.config.paths.store,
      secret: this.previewSecret(now),
      now,
    });
    if (checked.status === 'refused') throw new HttpError(400, checked.message);
    return checked.grant;
  }

  async adminView(): Promise<AdminRollouts> {
    const { paths } = this.config;
    return v.parse(AdminRolloutsSchema, {
      environment: paths.environment,
      manifest: readManifestOrNull(paths.manifestFile),
      health: await this.health.summary(),
      audit: readAuditOrEmpty(paths.auditFile),
    });
  }
}

// The admin view is a diagnostic: a corrupt or unreadable deployment file shows as missing, never as a 500.
function readManifestOrNull(file: string) {
  try {
    return readManifestFile(file);
  } catch {
    return null;
  }
}

function readAuditOrEmpty(file: string) {
  try {
    return readAuditLog(file, { limit: AUDIT_LIMIT * 5 })
      .filter((entry) => v.is(AuditEntrySchema, entry))
      .slice(0, AUDIT_LIMIT);
  } catch {
    return [];
  }
}
