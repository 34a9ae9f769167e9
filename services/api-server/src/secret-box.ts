import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Seals small secrets the API must keep but nobody reading the database may use (issue 46): a reset or
 * confirmation token waiting in the outbox, an authenticator's TOTP secret. AES-256-GCM under the account
 * key, which lives outside the database (ACCOUNT_SECRET, else a file beside the SQLite database), so a copy
 * of the database, a backup or an administrator's screen holds only sealed text. The edge never has the key.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** A box over `secret` (any text of 32 characters or more; hashed to the 256-bit key). */
  static fromSecret(secret: string): SecretBox {
    return new SecretBox(createHash('sha256').update(`account-secret:${secret}`).digest());
  }

  /** `v1.` + base64url(iv ‖ tag ‖ ciphertext). */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The plain text, or null when `sealed` was not sealed under this key (another key, tampered, garbage). */
  open(sealed: string): string | null {
    if (!sealed.startsWith('v1.')) return null;
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    if (raw.length < 28) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** The file the key is kept in when ACCOUNT_SECRET is not set: beside the SQLite database. */
export const ACCOUNT_SECRET_FILE = 'account-secret';

/**
 * The account key's text: ACCOUNT_SECRET when set, else the file `account-secret` beside `dbPath`, made
 * (0600, exclusively: two instances starting together agree on one) on first start. A database in memory
 * (tests) gets a key for this process only. Several instances on PostgreSQL must share ACCOUNT_SECRET.
 */
export function accountSecret(configured: string | null, dbPath: string): string {
  if (configured) return configured;
  if (dbPath === ':memory:') return randomBytes(32).toString('base64url');
  const file = path.join(path.dirname(path.resolve(dbPath)), ACCOUNT_SECRET_FILE);
  try {
    // On PostgreSQL nothing else makes DB_PATH's folder (a fresh clone has no data/).
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A read-only host (systemd's ProtectSystem) cannot keep the key beside DB_PATH: say what to set.
    if (code !== 'EEXIST')
      throw new Error(
        `ACCOUNT_SECRET is not set and ${file} cannot be made (${code ?? String(error)}): set ACCOUNT_SECRET (32 characters or more, the same on every API instance)`,
      );
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  if (text.length < 32) throw new Error(`${file} holds no account key (expected 32 characters or more)`);
  return text;
}
