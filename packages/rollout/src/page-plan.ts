import * as v from 'valibot';
import { IntegritySchema } from './integrity';
import { PAGE_PLAN_ID } from './page-plan-id';
import type { RemoteChoice } from './plan';
import { type ContainerName, REMOTE_CONTAINERS, REMOTE_PACKAGES } from './remotes';
import { MAX_TICKET_LENGTH } from './ticket-length';
import { VersionIdSchema } from './version-id';

/**
 * What the edge decided for this page view (docs/decisions/0026-edge.md), written into the page as a JSON
 * data block: the runtime config, which version of each remote this visitor gets, the preview's state and
 * whose cohort it is. The shell starts from it, so no config.json, deployment.json or preview request stands
 * between the HTML and a remote's first file, and the live page runs exactly the versions the HTML painted.
 */
export { PAGE_PLAN_ID };

const Iso = v.pipe(v.string(), v.isoTimestamp());

export const PreviewGrantShape = v.object({
  remote: v.picklist(REMOTE_PACKAGES),
  version: VersionIdSchema,
  expiresAt: Iso,
  /** The version's entry digest recorded at release: the shell loads the preview only if it matches. */
  integrity: IntegritySchema,
});

export const PreviewStateSchema = v.variant('status', [
  v.object({ status: v.literal('none') }),
  v.object({ status: v.literal('active'), grant: PreviewGrantShape }),
  v.object({ status: v.literal('refused'), message: v.pipe(v.string(), v.maxLength(300)) }),
]);
export type PreviewState = v.InferOutput<typeof PreviewStateSchema>;

/**
 * A dev override (issue 47): this browser loads `remote` from a team's dev server (`entry`, on `origin`), the
 * client renders it (the edge never runs a dev server's code). Checked like a preview, by the edge.
 */
export const OverrideGrantShape = v.object({
  remote: v.picklist(REMOTE_PACKAGES),
  entry: v.pipe(v.string(), v.url(), v.regex(/^https?:/)),
  origin: v.pipe(v.string(), v.url(), v.regex(/^https?:/)),
  expiresAt: Iso,
});
export const OverrideStateSchema = v.variant('status', [
  v.object({ status: v.literal('none') }),
  v.object({ status: v.literal('active'), grant: OverrideGrantShape }),
  v.object({ status: v.literal('refused'), message: v.pipe(v.string(), v.maxLength(300)) }),
]);
export type OverrideState = v.InferOutput<typeof OverrideStateSchema>;

const choiceFields = {
  entry: v.pipe(v.string(), v.url()),
  version: v.nullable(VersionIdSchema),
  integrity: v.nullable(IntegritySchema),
};
const RemoteChoiceSchema = v.object({
  remote: v.picklist(REMOTE_PACKAGES),
  ...choiceFields,
  track: v.picklist(['override', 'preview', 'canary', 'stable', 'config']),
  fallback: v.nullable(v.object({ ...choiceFields, track: v.picklist(['stable', 'config']) })),
});

export const PagePlanSchema = v.object({
  /** config.json as served (the shell validates it against its own origin, as it would the file). */
  config: v.unknown(),
  plan: v.object(
    Object.fromEntries(REMOTE_CONTAINERS.map((name) => [name, RemoteChoiceSchema])) as Record<
      ContainerName,
      typeof RemoteChoiceSchema
    >,
  ),
  preview: PreviewStateSchema,
  /** A dev override of one remote in this browser (issue 47); absent: none. */
  override: v.optional(OverrideStateSchema, { status: 'none' }),
  /** The member the visitor's cohort key names (`user:<id>`), or null for an anonymous key. */
  userId: v.nullable(v.pipe(v.string(), v.regex(/^\d{1,12}$/))),
  /** This page view's health ticket (docs/decisions/0027-health-gate.md); null: no reports from it. */
  health: v.optional(
    v.nullable(
      v.object({ ticket: v.pipe(v.string(), v.maxLength(MAX_TICKET_LENGTH)), expiresAt: v.number() }),
    ),
    null,
  ),
});

export interface PagePlan {
  config: unknown;
  plan: Record<ContainerName, RemoteChoice>;
  preview: PreviewState;
  override?: OverrideState;
  userId: string | null;
  health?: PageHealthTicket | null;
}

export interface PageHealthTicket {
  ticket: string;
  /** Milliseconds since the epoch: reports after it would be refused, so none are sent. */
  expiresAt: number;
}

/** The data block as the edge writes it ("<" escaped, so nothing in it can close the element early). */
export function pagePlanBlock(plan: PagePlan): string {
  const json = JSON.stringify(plan).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PAGE_PLAN_ID}">${json}</script>`;
}

/**
 * The page's plan from its block's text (`#page-plan`), validated; null when the page has none (no edge
 * served it) or it is unusable.
 */
export function parsePagePlan(text: string | null | undefined): PagePlan | null {
  if (!text) return null;
  try {
    const result = v.safeParse(PagePlanSchema, JSON.parse(text));
    return result.success ? (result.output as PagePlan) : null;
  } catch {
    return null;
  }
}
