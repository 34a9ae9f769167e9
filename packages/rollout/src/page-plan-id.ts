/** The id of the page's plan block (page-plan.ts), alone so the shell's first script can look for it cheaply. */
export const PAGE_PLAN_ID = 'page-plan';
