// Which version of each remote this visitor gets, decided before the HTML (docs/decisions/0026-edge.md):
// preview > canary > stable > config.json's URL, with the cohort drawn from the visitor's key. The rule is
// @app/rollout's planRemotes, the one the shell used to apply in the browser; here it only gets its inputs.
import {
  type ContainerName,
  cohortOf,
  type DeploymentManifest,
  type PagePlan,
  type PreviewState,
  planRemotes,
  REMOTE_CONTAINERS,
} from '@app/rollout';
import { issueTicket, ticketRemotes } from '@app/rollout/node';
import type { RawConfig } from './deployment-state';
import { userIdOf, type VisitorKey } from './visitor-cookie';

export function visitorPlan(o: {
  config: RawConfig;
  manifest: DeploymentManifest | null;
  visitorKey: VisitorKey;
  preview: PreviewState;
  /** The page's origin, which config.json's paths are relative to (as in the browser). */
  selfOrigin: string;
  /** The key of health tickets (@app/rollout/node ticketKey of the edge's secret). */
  ticketKey: Buffer;
  /** The environment whose deployment this page is planned from: its reports count there only. */
  environment: string;
  /** The client's address group (@app/rollout/node addressGroup): the gate caps visitors per group. */
  address: string;
}): PagePlan {
  const remotes = (field: 'url' | 'integrity') =>
    Object.fromEntries(REMOTE_CONTAINERS.map((name) => [name, o.config.remotes[name]?.[field]]));
  const releasesUrl = o.config.deployment?.releasesUrl;
  const plan = planRemotes(REMOTE_CONTAINERS, {
    configUrls: remotes('url') as Record<ContainerName, string>,
    configIntegrity: remotes('integrity') as Partial<Record<ContainerName, string>>,
    manifest: o.manifest,
    releasesUrl: releasesUrl ? new URL(releasesUrl, o.selfOrigin).href : null,
    cohort: cohortOf(o.visitorKey),
    preview: o.preview.status === 'active' ? o.preview.grant : null,
  });
  // The page view's health ticket (docs/decisions/0027-health-gate.md): its reports count only for the
  // versions this plan serves it. No released version, nothing to report on: no ticket.
  const served = ticketRemotes(plan);
  const health = Object.keys(served).length
    ? issueTicket(
        { visitorKey: o.visitorKey, environment: o.environment, address: o.address, remotes: served },
        o.ticketKey,
      )
    : null;
  return { config: o.config, plan, preview: o.preview, userId: userIdOf(o.visitorKey), health };
}
