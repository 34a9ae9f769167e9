import { publishableVisibilities, type Roles, VISIBILITIES, type Visibility } from '@app/contracts';

/**
 * Decision 0011: the visibilities the user's role may publish (the API refuses others), plus the post's
 * current one, so editing a post an administrator moved to a higher tier keeps it there.
 */
export function visibilityOptions(roles: Roles, current: Visibility) {
  const allowed = publishableVisibilities(roles);
  return VISIBILITIES.values
    .filter((value) => allowed.includes(value) || value === current)
    .map((value) => ({ value, label: VISIBILITIES.labels[value] }));
}

/** "Basic Member accounts publish to Public or Members.", for the field's hint; undefined for a guest. */
export function visibilityHint(roles: Roles, tierLabel: string): string | undefined {
  const labels = publishableVisibilities(roles).map((vis) => VISIBILITIES.labels[vis]);
  if (labels.length === 0) return undefined;
  const list = labels.length < 2 ? labels[0] : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
  return `${tierLabel} accounts publish to ${list}.`;
}
