/**
 * How PostgreSQL's writers meet without one lock shared by every write (issue 49, docs/decisions/0045-
 * writers-in-parallel.md). Transactions run at READ COMMITTED, in parallel; where two of them want the same
 * thing, the database says so and the loser runs its transaction again from the start, now seeing the
 * winner's committed rows, so it decides as it would have had it come second:
 * - 23505 unique_violation: a read-then-insert raced another (two registrations of one email, two instances
 *   writing the `local` deploy token, a like toggled twice at once). The unique constraint is the arbiter;
 *   the rerun finds the row and answers as for a taken name, or removes the like.
 * - 40P01 deadlock_detected: two writers took row locks in opposite orders (count rows kept by triggers).
 * - 40001 serialization_failure: only transactions that ask for more than READ COMMITTED get it.
 * A conflict that is not a race (a name that stays taken) fails the same way every time: after the last
 * attempt the error goes on to the caller, as before. SQLite never needs this: BEGIN IMMEDIATE makes its
 * writers take turns.
 */
const RETRYABLE = new Set(['23505', '40P01', '40001']);

/** Attempts of one transaction in all: enough for a burst of writers meeting on one row or name. */
export const WRITE_ATTEMPTS = 5;

export function isWriteConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/**
 * The pause before attempt `attempt` (2, 3, …): short and random, so the writers that just met do not meet
 * again in step; growing a little with each attempt.
 */
export function conflictBackoffMs(attempt: number): number {
  return Math.random() * 4 * attempt;
}
