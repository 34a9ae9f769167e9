/**
 * The roles a caller holds, and the one role both the access rules (access.ts, SPEC §6) and the edit policy
 * (policy.ts) ask about. Here, below both, so neither imports the other.
 */

/** The caller's roles; `null` means a guest (no token). */
export type Roles = readonly string[] | null;

/** SPEC §6: the administrator role. `null` (a guest) is never an admin. */
export const isAdmin = (roles: Roles): boolean => roles?.includes('admin') ?? false;
