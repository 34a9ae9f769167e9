// What other features of mf-research may use of the Research Center feature; its other modules are its own.

export { guestArrivalRequests } from './api/research-api';
export { actionsCss, emptyCss } from './components/guest-empty-state';
export { LockedActions, LockNotice } from './components/locked-actions';
export { VisibilityBadge } from './components/visibility-badge';
