import { TIERS, type Tier, VISIBILITIES, type Visibility } from './enums';
import { isAdmin, type Roles } from './roles';

export type { Roles } from './roles';

/**
 * The permission rules of SPEC §6, in one place. The API enforces them and the frontends use them to
 * decide what to ask for and what to show as locked. `roles === null` means a guest (no token).
 */

const has = (roles: Roles, role: string) => roles?.includes(role) ?? false;

export function tierOf(roles: Roles): Tier {
  if (roles === null) return 'guest';
  if (isAdmin(roles)) return 'admin';
  if (has(roles, 'paid-tier-2')) return 'premium_pro';
  if (has(roles, 'paid-tier-1')) return 'premium';
  return 'basic';
}

export function tierLabel(roles: Roles): string {
  return TIERS.labels[tierOf(roles)];
}

const TIER_RANK: Record<Tier, number> = { guest: 0, basic: 1, premium: 2, premium_pro: 3, admin: 4 };

/** The lowest tier that may open a post of the given visibility. */
export const VISIBILITY_MIN_TIER: Record<Visibility, Tier> = {
  public: 'guest',
  members_only: 'basic',
  'paid-tier-1': 'premium',
  'paid-tier-2': 'premium_pro',
  private: 'admin',
};

/** Whether a user with these roles may open a (published) post of this visibility. */
export function canOpen(visibility: Visibility, roles: Roles): boolean {
  return TIER_RANK[tierOf(roles)] >= TIER_RANK[VISIBILITY_MIN_TIER[visibility]];
}

/** Every visibility a user with these roles may open. */
export function openableVisibilities(roles: Roles): Visibility[] {
  return (Object.keys(VISIBILITY_MIN_TIER) as Visibility[]).filter((vis) => canOpen(vis, roles));
}

/**
 * The visibilities an author with these roles may give a post (docs/decisions/0011): the audiences they
 * belong to. A member publishes to Public or Members; Premium and Premium Pro add their own paid tiers; only
 * an administrator may choose Admin Only. A guest publishes nothing. The editor offers exactly these and
 * the API refuses any other.
 */
export function publishableVisibilities(roles: Roles): Visibility[] {
  return roles === null ? [] : openableVisibilities(roles);
}

export function canPublishAs(visibility: Visibility, roles: Roles): boolean {
  return publishableVisibilities(roles).includes(visibility);
}

/** Why the API refused a visibility, in words an author can act on. */
export function publishRefusal(visibility: Visibility, roles: Roles): string {
  const allowed = publishableVisibilities(roles).map((vis) => VISIBILITIES.labels[vis]);
  const label = VISIBILITIES.labels[visibility];
  if (allowed.length === 0) return 'Log in to publish research';
  return `${tierLabel(roles)} accounts cannot publish ${label} research. Choose ${allowed.join(', ').replace(/, ([^,]*)$/, ' or $1')}.`;
}

/**
 * The visibilities the Explore list asks for, exactly as SPEC §6 words it: always public; for a logged-in
 * user with a profile, members_only if tier-1, tier-2 or admin; paid-tier-1 if tier-2 or admin;
 * paid-tier-2 and private if admin. (A basic member is therefore not sent members_only posts in Explore,
 * although they may open one by id; the spec is explicit, so we follow it.)
 */
export function exploreVisibilities(roles: Roles): Visibility[] {
  const out: Visibility[] = ['public'];
  if (roles === null) return out;
  const admin = isAdmin(roles);
  const t2 = has(roles, 'paid-tier-2');
  const t1 = has(roles, 'paid-tier-1');
  if (t1 || t2 || admin) out.push('members_only');
  if (t2 || admin) out.push('paid-tier-1');
  if (admin) out.push('paid-tier-2', 'private');
  return out;
}

/** Text describing what a tier can read, for the Analytics account info. */
export const ACCESS_LEVEL_TEXT: Record<Tier, string> = {
  guest: 'Public research only',
  basic: 'Public and member research',
  premium: 'Public, member and Premium research',
  premium_pro: 'Public, member, Premium and Premium Pro research',
  admin: 'Full access to all research',
};
