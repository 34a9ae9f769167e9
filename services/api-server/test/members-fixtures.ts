import type { Sql } from '../src/db/sql';

/** When the bulk members were made: one a minute, two at a time, so the id decides between equal times. */
const BASE = Date.parse('2025-01-01T00:00:00.000Z');
export const memberName = (i: number) => `member${String(i).padStart(5, '0')}`;

/**
 * `count` members straight in SQL, in chunks of multi-row INSERTs (both databases, ~0.3 s for 10,000):
 * every tenth pending and registered from one of five addresses, the rest active. One member's first
 * name holds `%` and `_`, to show the search takes them literally.
 */
export async function insertMembers(sql: Sql, count: number): Promise<void> {
  const CHUNK = 500;
  await sql.transaction(async (tx) => {
    for (let start = 1; start <= count; start += CHUNK) {
      const rows: unknown[] = [];
      const end = Math.min(count, start + CHUNK - 1);
      for (let i = start; i <= end; i++) {
        const pending = i % 10 === 0;
        rows.push(
          memberName(i),
          `${memberName(i)}@corp-${i % 7}.example`,
          'not-a-login-hash',
          i === 4242 ? '100%_Sure' : `First${i % 100}`,
          `Last${i % 1000}`,
          pending ? 0 : 1,
          new Date(BASE + Math.floor(i / 2) * 60_000).toISOString(),
          pending ? `198.51.100.${i % 5}` : null,
        );
      }
      const values = Array.from({ length: end - start + 1 }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      await tx.run(
        `INSERT INTO users (username, email, password_hash, first_name, last_name, is_active, created_at,
          registered_from) VALUES ${values}`,
        rows,
      );
    }
  });
}
