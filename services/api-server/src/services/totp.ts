import { createHash, randomBytes } from 'node:crypto';
import { MESSAGES } from '@app/contracts';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';

/**
 * The TOTP arithmetic of issue 46 (RFC 6238 through otplib: SHA-1, 6 digits, 30-second steps, what every
 * authenticator app reads from a QR code) and the recovery codes. No database here: two-factor.ts keeps state.
 */

/** Seconds per code: the authenticators' default; anything else many apps silently ignore. */
export const STEP_SECONDS = 30;

/**
 * A code is accepted one step early or late: a phone's clock a few seconds off, or a code typed as it
 * turned over, still works. Replay is refused by the step (afterStep), not by the tolerance.
 */
const TOLERANCE_SECONDS = STEP_SECONDS;

/** The issuer an authenticator app lists the account under. */
const ISSUER = MESSAGES.app.companyName;

export const RECOVERY_CODE_COUNT = 10;

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), Base32 as the apps expect. */
export const newTotpSecret = (): string => generateSecret();

/** What the QR code carries: otpauth://totp/Issuer:label?secret=…&issuer=… */
export const otpauthUrl = (secret: string, label: string): string =>
  generateURI({ issuer: ISSUER, label, secret });

/**
 * The QR code as an SVG data URL, drawn on the server so no browser bundle carries a QR library (and the
 * secret never goes to a third party's image service).
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Six digits, spaces allowed (apps show "123 456"): a TOTP code rather than a recovery code. */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/**
 * The time step `code` belongs to when it is valid for `secret` at `nowMs` and later than `afterStep`, else
 * null. The caller stores the step, so the same code (or an older one) is refused next time: replay.
 */
export function totpStep(secret: string, code: string, nowMs: number, afterStep: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const result = verifySync({
    secret,
    token,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    afterTimeStep: afterStep,
  });
  // otplib types the answer for TOTP and HOTP alike; a TOTP answer carries its time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * 120 random bits as 24 Base32 characters (a-z, 2-7) in six groups: "k7qd-3mzp-x2ha-wv5e-q4nc-t6yb". At
 * 112 bits or more a plain SHA-256 may store it (ASVS 5.0 6.5.2): no guess offline can find it.
 */
function recoveryCode(): string {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join('-');
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);

/** What is stored of a recovery code: SHA-256 over the account and the code without spaces, dashes or case. */
export function recoveryCodeHash(userId: number, code: string): string {
  const normal = code.toLowerCase().replace(/[\s-]+/g, '');
  return createHash('sha256').update(`recovery:${userId}:${normal}`).digest('hex');
}
