import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { MSG, USER_SELECT, type UserRow } from './account-model';

const BY_ID = `${USER_SELECT} WHERE u.id = ?`;
const BY_EMAIL = `${USER_SELECT} WHERE u.email = ?`;
const BY_USERNAME = `${USER_SELECT} WHERE u.username = ?`;

/** Looking users up by id, email or username, and the uniqueness check for username and email. */
export class UserDirectory {
  constructor(private readonly sql: Sql) {}

  byId(id: number): Promise<UserRow | undefined> {
    return this.sql.get<UserRow>(BY_ID, [id]);
  }

  findUser(identifier: string): Promise<UserRow | undefined> {
    const id = identifier.trim();
    if (id.includes('@')) return this.sql.get<UserRow>(BY_EMAIL, [id.toLowerCase()]);
    return this.sql.get<UserRow>(BY_USERNAME, [id]);
  }

  /** Resolve "42", an email or a username (CLI and admin API). */
  resolveUser(ref: string | number): Promise<UserRow | undefined> {
    const s = String(ref).trim();
    if (/^\d+$/.test(s)) return this.byId(Number(s));
    return this.findUser(s);
  }

  async assertUnique(username: string | null, email: string | null, exceptId = 0) {
    if (username !== null) {
      const row = await this.sql.get<UserRow>(BY_USERNAME, [username]);
      if (row && row.id !== exceptId)
        throw new HttpError(409, MSG.usernameTaken, { username: MSG.usernameTaken });
    }
    if (email !== null) {
      const row = await this.sql.get<UserRow>(BY_EMAIL, [email]);
      if (row && row.id !== exceptId) throw new HttpError(409, MSG.emailTaken, { email: MSG.emailTaken });
    }
  }
}
