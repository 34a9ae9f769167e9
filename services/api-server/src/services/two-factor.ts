import {
  isAdmin,
  MESSAGES,
  type RecoveryCodes,
  type StepUpResponse,
  type TwoFactorDisable,
  type TwoFactorSetup,
  type TwoFactorSetupRequest,
  type TwoFactorStatus,
} from '@app/contracts';
import type { Clock } from '../clock';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { SecretBox } from '../secret-box';
import { type Caller, MSG } from './account-model';
import { currentPasswordKey, type LoginThrottle } from './login-throttle';
import type { Passwords } from './passwords';
import {
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  qrCodeDataUrl,
  recoveryCodeHash,
  totpStep,
} from './totp';
import type { UserDirectory } from './users';

const T = MESSAGES.twoFactor;

interface TotpRow {
  secret_sealed: string | null;
  enabled_at: number | null;
  last_step: number;
  pending_sealed: string | null;
}

const Q = {
  row: 'SELECT secret_sealed, enabled_at, last_step, pending_sealed FROM user_totp WHERE user_id = ?',
  // The step only moves forward, and only one request moves it past a given step: a code used twice at once
  // is accepted once.
  useStep:
    'UPDATE user_totp SET last_step = ? WHERE user_id = ? AND last_step < ? AND enabled_at IS NOT NULL',
  useRecovery:
    'UPDATE user_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL',
  recoveryLeft: 'SELECT COUNT(*) FROM user_recovery_codes WHERE user_id = ? AND used_at IS NULL',
  stepUpAt: 'SELECT second_factor_at FROM sessions WHERE token_hash = ?',
  markStepUp: 'UPDATE sessions SET second_factor_at = ? WHERE token_hash = ?',
};

/** What the admin routes need to know about the caller (routes/admin-gate.ts). */
export interface AdminFactorState {
  enabled: boolean;
  /** When this session last verified a code (ms), 0 if never. */
  verifiedAt: number;
}

/**
 * An account's second factor (issue 46): setup and confirmation from the profile, the check at login, the
 * step-up check of sensitive admin actions, turning it off (members only) and the CLI's reset. The secret is
 * sealed at rest (secret-box.ts); recovery codes are kept as hashes.
 *
 * Wrong codes in a signed-in request answer 400 (a 401 would end the session in the client) and count on
 * a counter of the account's own (`code:<id>`), which locks further codes for LOCKOUT_DURATION_MS: a stolen
 * session cannot try all million codes.
 */
export class TwoFactor {
  constructor(
    private readonly sql: Sql,
    private readonly secrets: SecretBox,
    private readonly passwords: Passwords,
    private readonly users: UserDirectory,
    private readonly throttle: LoginThrottle,
    private readonly stepUpMs: number,
    private readonly now: Clock,
  ) {}

  private row(userId: number): Promise<TotpRow | undefined> {
    return this.sql.get<TotpRow>(Q.row, [userId]);
  }

  async enabled(userId: number): Promise<boolean> {
    const row = await this.row(userId);
    return row?.enabled_at != null && row.secret_sealed !== null;
  }

  async status(caller: Caller): Promise<TwoFactorStatus> {
    const row = await this.row(caller.userId);
    const enabled = row?.enabled_at != null && row.secret_sealed !== null;
    const left = enabled ? Number(await this.sql.value(Q.recoveryLeft, [caller.userId])) : 0;
    return {
      enabled,
      required: isAdmin(caller.roles),
      pending: Boolean(row?.pending_sealed),
      recoveryCodesLeft: left,
    };
  }

  /**
   * True when `code` is a current authenticator code not used before, or an unused recovery code (which is
   * then used up). Used at login, where the caller counts a false as a failed login.
   */
  async check(userId: number, code: string): Promise<boolean> {
    const row = await this.row(userId);
    if (row?.enabled_at == null || row.secret_sealed === null) return false;
    if (isTotpCode(code)) {
      // A secret that no longer opens (ACCOUNT_SECRET changed) accepts nothing: `pnpm admin reset-2fa`.
      const secret = this.secrets.open(row.secret_sealed);
      const step = secret === null ? null : totpStep(secret, code, this.now(), row.last_step);
      return step !== null && (await this.sql.run(Q.useStep, [step, userId, step])) === 1;
    }
    const hash = recoveryCodeHash(userId, code);
    return (await this.sql.run(Q.useRecovery, [this.now(), userId, hash])) === 1;
  }

  /** check(), for a signed-in request: no code or a wrong one is a 400 on the `code` field; a wrong one counts. */
  private async require(userId: number, code: string | undefined): Promise<void> {
    if (!code) throw new HttpError(400, T.codeMissing, { code: T.codeMissing });
    if (!(await this.throttle.guess(`code:${userId}`, () => this.check(userId, code))))
      throw new HttpError(400, T.codeWrong, { code: T.codeWrong });
  }

  private async requirePassword(userId: number, password: string): Promise<string> {
    const user = await this.users.byId(userId);
    if (!user) throw new HttpError(401, MSG.sessionInvalid);
    const right = () => this.passwords.verify(user.password_hash, password);
    if (!(await this.throttle.guess(currentPasswordKey(userId), right)))
      throw new HttpError(400, MSG.currentPasswordWrong, { password: MSG.currentPasswordWrong });
    return user.email;
  }

  /**
   * Starts a setup: a new secret, pending until a code from it confirms it. The password always (a stolen
   * session must not bind the account to the thief's phone); the current code too when one is replaced,
   * which keeps working until the new one is confirmed.
   */
  async begin(caller: Caller, input: TwoFactorSetupRequest): Promise<TwoFactorSetup> {
    const email = await this.requirePassword(caller.userId, input.password);
    if (await this.enabled(caller.userId)) await this.require(caller.userId, input.code);
    const secret = newTotpSecret();
    await this.sql.run(
      `INSERT INTO user_totp (user_id, pending_sealed, pending_at) VALUES (?, ?, ?)
       ON CONFLICT(user_id) DO UPDATE SET pending_sealed = excluded.pending_sealed, pending_at = excluded.pending_at`,
      [caller.userId, this.secrets.seal(secret), this.now()],
    );
    const url = otpauthUrl(secret, email);
    return { secret, otpauthUrl: url, qrCode: await qrCodeDataUrl(url) };
  }

  /** A code from the pending secret turns it on (replacing any before) with ten new recovery codes. */
  async confirm(caller: Caller, code: string): Promise<RecoveryCodes> {
    const userId = caller.userId;
    const key = `code:${userId}`;
    if (await this.throttle.keyLocked(key)) throw new HttpError(423, MSG.locked);
    const row = await this.row(userId);
    const secret = row?.pending_sealed ? this.secrets.open(row.pending_sealed) : null;
    if (!row || secret === null) throw new HttpError(400, T.noPending);
    // Steps used with an authenticator being replaced say nothing about the new secret's codes.
    const step = totpStep(secret, code, this.now(), 0);
    if (step === null) {
      await this.throttle.count(key);
      if (await this.throttle.keyLocked(key)) throw new HttpError(423, MSG.locked);
      throw new HttpError(400, T.codeWrong, { code: T.codeWrong });
    }
    await this.throttle.clear(key);
    const codes = newRecoveryCodes();
    await this.sql.transaction(async (tx) => {
      // Only the pending secret this code was checked against: a confirmation at once with another one
      // waits for the row, then finds it gone and changes nothing (the codes are the first one's).
      const confirmed = await tx.run(
        `UPDATE user_totp SET secret_sealed = pending_sealed, enabled_at = ?, last_step = ?, pending_sealed = NULL,
           pending_at = NULL WHERE user_id = ? AND pending_sealed = ?`,
        [this.now(), step, userId, row.pending_sealed],
      );
      if (confirmed === 0) throw new HttpError(400, T.noPending);
      await tx.run('DELETE FROM user_recovery_codes WHERE user_id = ?', [userId]);
      for (const c of codes)
        await tx.run('INSERT INTO user_recovery_codes (user_id, code_hash) VALUES (?, ?)', [
          userId,
          recoveryCodeHash(userId, c),
        ]);
    });
    return { message: T.enabled, recoveryCodes: codes };
  }

  /** Members may turn it off with their password and a code; administrators may only replace it. */
  async disable(caller: Caller, input: TwoFactorDisable): Promise<void> {
    if (isAdmin(caller.roles)) throw new HttpError(403, T.adminCannotDisable);
    if (!(await this.enabled(caller.userId))) throw new HttpError(400, T.notEnabled);
    await this.requirePassword(caller.userId, input.password);
    await this.require(caller.userId, input.code);
    await this.remove(this.sql, caller.userId);
  }

  /** Step-up: a code verified for this session, which sensitive admin actions then accept for stepUpMs. */
  async verify(caller: Caller, code: string): Promise<StepUpResponse> {
    if (!(await this.enabled(caller.userId))) throw new HttpError(400, T.notEnabled);
    await this.require(caller.userId, code);
    const at = this.now();
    await this.sql.run(Q.markStepUp, [at, caller.tokenHash]);
    return { message: T.stepUpDone, verifiedUntil: at + this.stepUpMs };
  }

  async adminState(userId: number, tokenHash: string): Promise<AdminFactorState> {
    const enabled = await this.enabled(userId);
    const at = enabled ? await this.sql.value<number>(Q.stepUpAt, [tokenHash]) : 0;
    return { enabled, verifiedAt: Number(at ?? 0) };
  }

  /** True when this session verified a code less than stepUpMs ago. */
  steppedUp(state: AdminFactorState): boolean {
    return state.verifiedAt > 0 && this.now() - state.verifiedAt < this.stepUpMs;
  }

  /** The factor, its recovery codes and any setup in progress, gone (in the caller's transaction `tx`). */
  async remove(tx: Sql, userId: number): Promise<void> {
    await tx.run('DELETE FROM user_recovery_codes WHERE user_id = ?', [userId]);
    await tx.run('DELETE FROM user_totp WHERE user_id = ?', [userId]);
  }
}
