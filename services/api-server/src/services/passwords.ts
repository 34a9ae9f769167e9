import type { Algorithm } from '@node-rs/argon2';
import { hash, verify } from '@node-rs/argon2';
import type { Config } from '../config';

// Algorithm is a const enum in the typings; 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

export class Passwords {
  private dummyHash: Promise<string>;
  constructor(private readonly cost: Config['argon2']) {
    // Verified against for unknown accounts so their answers take as long as a wrong password.
    this.dummyHash = this.hash('dummy-password-for-timing-only');
  }
  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID, ...this.cost });
  }
  async verify(stored: string | null, password: string): Promise<boolean> {
    try {
      if (stored === null) {
        await verify(await this.dummyHash, password);
        return false;
      }
      return await verify(stored, password);
    } catch {
      return false;
    }
  }
}
