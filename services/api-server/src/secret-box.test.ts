import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_SECRET_FILE, accountSecret, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = SecretBox.fromSecret('x'.repeat(32));

  it('opens what it sealed; the sealed text does not hold the secret', () => {
    const sealed = box.seal('reset-token-123');
    expect(sealed).not.toContain('reset-token-123');
    expect(box.open(sealed)).toBe('reset-token-123');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses another key, a changed byte and garbage', () => {
    const sealed = box.seal('secret');
    expect(SecretBox.fromSecret('y'.repeat(32)).open(sealed)).toBeNull();
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`;
    expect(box.open(flipped)).toBeNull();
    expect(box.open('v1.abc')).toBeNull();
    expect(box.open('plain')).toBeNull();
  });
});

describe('accountSecret', () => {
  it('prefers ACCOUNT_SECRET; else makes one file (0600) beside the database and keeps it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-secret-'));
    const db = path.join(dir, 'app.db');
    expect(accountSecret('z'.repeat(40), db)).toBe('z'.repeat(40));
    expect(fs.existsSync(path.join(dir, ACCOUNT_SECRET_FILE))).toBe(false);
    const first = accountSecret(null, db);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(accountSecret(null, db)).toBe(first);
    expect(fs.statSync(path.join(dir, ACCOUNT_SECRET_FILE)).mode & 0o777).toBe(0o600);
  });
});

describe('accountSecret where it cannot keep a key', () => {
  it('says to set ACCOUNT_SECRET when no file can be made beside the database', () => {
    // A folder that cannot exist (its parent is a file): fails for every user, root included.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-secret-ro-'));
    const notAFolder = path.join(dir, 'plain-file');
    fs.writeFileSync(notAFolder, '');
    expect(() => accountSecret(null, path.join(notAFolder, 'data', 'app.db'))).toThrow(
      /^ACCOUNT_SECRET is not set and .* cannot be made \(ENOTDIR\): set ACCOUNT_SECRET/,
    );
  });
});
