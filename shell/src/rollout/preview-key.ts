/** Where a preview link's token waits between page loads (kept apart: the shell's first script reads it). */
export const PREVIEW_KEY = 'rollout-preview';
