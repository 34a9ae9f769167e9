/**
 * The API's one clock (issue 35): milliseconds since the epoch. Production passes Date.now; tests pass a clock
 * they step, so sessions, lockouts, windows and timestamps move when the test says, not when the wall clock does.
 */
export type Clock = () => number;

/** The clock's time as the ISO text the *_at TEXT columns hold. */
export const isoAt = (clock: Clock): string => new Date(clock()).toISOString();
