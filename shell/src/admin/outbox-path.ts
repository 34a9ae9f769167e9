/** The shell's outbox page (kept apart from the page, so the nav and the router do not pull it in). */
export const OUTBOX_PATH = '/admin/outbox';
