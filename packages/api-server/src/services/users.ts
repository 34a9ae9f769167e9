import type { DB } from '../db/database';
import { HttpError } from '../errors';
import { MSG, USER_SELECT, type UserRow } from './account-model';

/** Looking users up by id, email or username, and the uniqueness check for username and email. */
export class UserDirectory {
  private stmts;

  constructor(db: DB) {
    this.stmts = {
      userById: db.prepare(`${USER_SELECT} WHERE u.id = ?`),
      userByEmail: db.prepare(`${USER_SELECT} WHERE u.email = ?`),
      userByUsername: db.prepare(`${USER_SELECT} WHERE u.username = ?`),
    };
  }

  byId(id: number): UserRow | undefined {
    return this.stmts.userById.get(id) as UserRow | undefined;
  }

  findUser(identifier: string): UserRow | undefined {
    const id = identifier.trim();
    if (id.includes('@')) return this.stmts.userByEmail.get(id.toLowerCase()) as UserRow | undefined;
    return this.stmts.userByUsername.get(id) as UserRow | undefined;
  }

  /** Resolve "42", an email or a username (CLI and admin API). */
  resolveUser(ref: string | number): UserRow | undefined {
    const s = String(ref).trim();
    if (/^\d+$/.test(s)) return this.byId(Number(s));
    return this.findUser(s);
  }

  assertUnique(username: string | null, email: string | null, exceptId = 0) {
    if (username !== null) {
      const row = this.stmts.userByUsername.get(username) as UserRow | undefined;
      if (row && row.id !== exceptId)
        throw new HttpError(409, MSG.usernameTaken, { username: MSG.usernameTaken });
    }
    if (email !== null) {
      const row = this.stmts.userByEmail.get(email) as UserRow | undefined;
      if (row && row.id !== exceptId) throw new HttpError(409, MSG.emailTaken, { email: MSG.emailTaken });
    }
  }
}
