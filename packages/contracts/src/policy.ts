import { isAdmin, type Roles } from './roles';

export { isAdmin } from './roles';

/**
 * Who may change what, in one place (issue 13): the research remote decides which buttons to show with it
 * and the API decides what to refuse with it, so the two can never disagree. Reading is SPEC §6 (access.ts).
 */

/** The person asking: their user id (absent for a guest or before the profile loads) and roles. */
export interface Viewer {
  id?: number | null;
  roles: Roles;
}

/**
 * Something with an author: a post or comment as the API sends it (`author.id`), or a row as the API's
 * database holds it (`author_id`). A deleted author leaves `null`, which nobody owns.
 */
export type Authored = { author: { id?: number | null } } | { author_id: number | null };

const authorIdOf = (item: Authored) => ('author_id' in item ? item.author_id : item.author.id);

/** Whether the viewer wrote it. A viewer without an id owns nothing. */
export function isOwner(viewer: Viewer, item: Authored): boolean {
  const id = viewer.id;
  return id !== undefined && id !== null && authorIdOf(item) === id;
}

export type Action = 'edit' | 'delete';
type Rule = 'owner' | 'owner-or-admin';

/**
 * The policy map: the rule for each action on each kind of thing. A comment is edited only by whoever
 * wrote it (an administrator may remove it, never reword it).
 */
export const POLICY: Record<'post' | 'comment', Record<Action, Rule>> = {
  post: { edit: 'owner-or-admin', delete: 'owner-or-admin' },
  comment: { edit: 'owner', delete: 'owner-or-admin' },
};

function allows(rule: Rule, viewer: Viewer, item: Authored): boolean {
  return isOwner(viewer, item) || (rule === 'owner-or-admin' && isAdmin(viewer.roles));
}

/** `can(viewer, 'edit', post)`: the post's author or an administrator. */
export const can = (viewer: Viewer, action: Action, post: Authored): boolean =>
  allows(POLICY.post[action], viewer, post);

/** The same question for a comment. */
export const canComment = (viewer: Viewer, action: Action, comment: Authored): boolean =>
  allows(POLICY.comment[action], viewer, comment);
