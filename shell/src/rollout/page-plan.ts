import { PAGE_PLAN_ID, type PagePlan, parsePagePlan } from '@app/rollout';

/**
 * The plan the edge wrote into this page (docs/decisions/0026-edge.md): the runtime config, the version of
 * each remote this visitor gets, the preview's state and whose cohort it is. Read once; null where no edge
 * served the page (the webpack dev server, a page saved to disk), and the shell then decides itself.
 */
let read = false;
let plan: PagePlan | null = null;

export function pagePlan(doc: Document = document): PagePlan | null {
  if (!read) {
    read = true;
    plan = parsePagePlan(doc.getElementById(PAGE_PLAN_ID)?.textContent);
  }
  return plan;
}

/** Tests: read the page again. */
export function forgetPagePlan(): void {
  read = false;
  plan = null;
}

/** The edge's own endpoints (services/edge/src/edge-endpoints.ts), on the page's origin. */
export const EDGE_PATHS = {
  identity: '/_edge/identity',
  exitPreview: '/_edge/exit-preview',
  exitOverride: '/_edge/exit-override',
} as const;
