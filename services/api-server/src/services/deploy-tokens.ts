import { createHash, randomBytes } from 'node:crypto';
import { DEPLOY_TOKEN_PATTERN, type DeployTokenScope } from '@app/contracts/deploy';
import { isRemotePackage, REMOTE_PACKAGES, type RemotePackage } from '@app/rollout';
import type { Sql } from '../db/sql';
import { isUniqueViolation } from '../errors';

/**
 * Deploy tokens (docs/decisions/0030-deploy-control-plane.md): what a pipeline sends to change a remote's
 * deployment. A token is 32 random bytes; only its SHA-256 is stored. A fast hash is right here (argon2 is
 * for passwords a person picks): nobody can guess 256 random bits, so a stolen table only helps with a
 * preimage of SHA-256.
 */
export interface DeployTokenRow {
  name: string;
  admin: boolean;
  remotes: RemotePackage[];
  /** Empty: every environment (an admin token made without --env). */
  environments: string[];
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface NewDeployToken {
  name: string;
  admin: boolean;
  remotes: readonly string[];
  environments: readonly string[];
  createdBy: string;
}

export class DeployTokenError extends Error {
  override readonly name = 'DeployTokenError';
}

export const hashDeployToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** `mfd_` + 43 base64url characters: 32 random bytes. */
export const newDeployToken = () => `mfd_${randomBytes(32).toString('base64url')}`;

/** Writing last_used_at on every call would make each deploy call a write; once a minute tells enough. */
const LAST_USE_EVERY_MS = 60_000;

interface Stored {
  name: string;
  admin: number;
  remotes: string;
  environments: string;
  created_at: string;
  created_by: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const split = (list: string) => list.split(',').filter(Boolean);
const SELECT = `SELECT name, admin, remotes, environments, created_at, created_by, revoked_at, last_used_at
  FROM deploy_tokens`;

export class DeployTokenService {
  private readonly lastUseWritten = new Map<string, number>();

  constructor(
    private readonly sql: Sql,
    /** DEPLOY_ENVIRONMENTS: a token may only name these. */
    private readonly knownEnvironments: readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates a token and answers it: the only time it exists outside the caller's hands. */
  async create(input: NewDeployToken): Promise<{ token: string; row: DeployTokenRow }> {
    const name = input.name.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
      throw new DeployTokenError(
        'A token name is 1 to 64 letters, digits, dots, dashes or underscores (e.g. research-ci)',
      );
    }
    for (const remote of input.remotes) {
      if (!isRemotePackage(remote))
        throw new DeployTokenError(`Unknown remote "${remote}" (known: ${REMOTE_PACKAGES.join(', ')})`);
    }
    for (const env of input.environments) {
      if (!this.knownEnvironments.includes(env)) {
        throw new DeployTokenError(
          `Unknown environment "${env}" (known: ${this.knownEnvironments.join(', ')}; DEPLOY_ENVIRONMENTS)`,
        );
      }
    }
    if (!input.admin && (input.remotes.length === 0 || input.environments.length === 0)) {
      throw new DeployTokenError('A token names at least one remote and one environment, or is --admin');
    }
    const token = newDeployToken();
    try {
      await this.insert(name, hashDeployToken(token), input);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new DeployTokenError(`A deploy token named "${name}" exists already`);
      throw error;
    }
    return { token, row: (await this.find(name))! };
  }

  private insert(name: string, hash: string, input: Omit<NewDeployToken, 'name'>) {
    return this.sql.run(
      `INSERT INTO deploy_tokens (name, token_hash, admin, remotes, environments, created_at, created_by)
       VALUES (@name, @hash, @admin, @remotes, @environments, @at, @by)`,
      {
        name,
        hash,
        admin: input.admin ? 1 : 0,
        remotes: input.admin ? '' : [...new Set(input.remotes)].join(','),
        environments: [...new Set(input.environments)].join(','),
        at: new Date(this.now()).toISOString(),
        by: input.createdBy,
      },
    );
  }

  /**
   * The install's own admin token (`local`): its hash follows the token file, whichever instance wrote it.
   * An upsert, so every instance starting at once agrees (they all read the same file).
   */
  async ensureLocal(token: string): Promise<void> {
    const hash = hashDeployToken(token);
    await this.sql.transaction(async (tx) => {
      const changed = await tx.run(
        // A revoked `local` stays revoked while the file is the same; a new file (deleted to rotate it)
        // is a new credential. SET's right-hand sides all see the row as it was.
        `UPDATE deploy_tokens SET token_hash = @hash, admin = TRUE, remotes = '', environments = '',
           revoked_at = CASE WHEN token_hash = @hash THEN revoked_at ELSE NULL END
         WHERE name = 'local'`,
        { hash },
      );
      if (changed === 0) {
        await tx.run(
          `INSERT INTO deploy_tokens (name, token_hash, admin, remotes, environments, created_at, created_by)
           VALUES ('local', @hash, TRUE, '', '', @at, 'api-server')`,
          { hash, at: new Date(this.now()).toISOString() },
        );
      }
    });
  }

  async list(): Promise<DeployTokenRow[]> {
    return (await this.sql.all<Stored>(`${SELECT} ORDER BY name`)).map(toRow);
  }

  async find(name: string): Promise<DeployTokenRow | null> {
    const row = await this.sql.get<Stored>(`${SELECT} WHERE name = @name`, { name });
    return row ? toRow(row) : null;
  }

  /** Revokes by name; false when there is no such token (or it was revoked already). */
  async revoke(name: string): Promise<boolean> {
    const changed = await this.sql.run(
      'UPDATE deploy_tokens SET revoked_at = @at WHERE name = @name AND revoked_at IS NULL',
      { name, at: new Date(this.now()).toISOString() },
    );
    this.lastUseWritten.delete(name);
    return changed > 0;
  }

  /** The token's scope, or null for anything that is not a live token. Records the use. */
  async verify(token: string): Promise<DeployTokenRow | null> {
    if (!DEPLOY_TOKEN_PATTERN.test(token)) return null;
    const row = await this.sql.get<Stored>(`${SELECT} WHERE token_hash = @hash`, {
      hash: hashDeployToken(token),
    });
    if (!row || row.revoked_at) return null;
    const now = this.now();
    const written = this.lastUseWritten.get(row.name) ?? 0;
    if (now - written >= LAST_USE_EVERY_MS) {
      this.lastUseWritten.set(row.name, now);
      const at = new Date(now).toISOString();
      await this.sql.run('UPDATE deploy_tokens SET last_used_at = @at WHERE name = @name', {
        at,
        name: row.name,
      });
      row.last_used_at = at;
    }
    return toRow(row);
  }

  /** The scope as the API shows it: lists spelled out (an admin: every remote; no list: every environment). */
  scopeOf(row: DeployTokenRow): DeployTokenScope {
    return {
      name: row.name,
      admin: row.admin,
      remotes: row.admin ? [...REMOTE_PACKAGES] : row.remotes,
      environments: row.environments.length > 0 ? row.environments : [...this.knownEnvironments],
    };
  }
}

function toRow(row: Stored): DeployTokenRow {
  return {
    name: row.name,
    admin: Boolean(row.admin),
    remotes: split(row.remotes).filter(isRemotePackage),
    environments: split(row.environments),
    createdAt: row.created_at,
    createdBy: row.created_by,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}
