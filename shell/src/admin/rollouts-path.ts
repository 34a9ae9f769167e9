/** The shell's admin page of rollouts (kept apart from the page, so the route table does not pull it in). */
export const ROLLOUTS_PATH = '/admin/rollouts';
