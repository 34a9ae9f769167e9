// Which version of each remote this visitor gets, decided before the HTML (docs/decisions/0026-edge.md):
// preview > canary > stable > config.json's URL, with the cohort drawn from the visitor's key. The rule is
// @app/rollout's planRemotes, the one the shell used to apply in the browser; here it only gets its inputs.

import { addressKey } from '@app/client-address';
import {
  type ContainerName,
  cohortOf,
  type DeploymentManifest,
  type OverrideState,
  type PagePlan,
  type PreviewState,
  planRemotes,
  REMOTE_CONTAINERS,
  type RemotePackage,
} from '@app/rollout';
import { issueTicket, ticketRemotes } from '@app/rollout/node';
import type { RawConfig } from './deployment-state';
import { isCounted, userIdOf, type VisitorKey } from './visitor-cookie';

export function visitorPlan(o: {
  config: RawConfig;
  manifest: DeploymentManifest | null;
  visitorKey: VisitorKey;
  preview: PreviewState;
  /** A dev override of this browser (issue 47): that remote from the dev server, the client renders it. */
  override?: OverrideState;
  /** The page's origin, which config.json's paths are relative to (as in the browser). */
  selfOrigin: string;
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
    override: o.override?.status === 'active' ? o.override.grant : null,
  });
  return {
    config: o.config,
    plan,
    preview: o.preview,
    ...(o.override && o.override.status !== 'none' ? { override: o.override } : {}),
    userId: userIdOf(o.visitorKey),
    health: null,
  };
}

/**
 * The page view's health ticket (docs/decisions/0027-health-gate.md): its reports count only for the versions
 * this plan serves it, in this environment, and it carries whether a release's server render failed on this
 * view. Made after the page's region (which is when a render failure is known). No released version, or a
 * visitor past their address's limit of new visitors (new-visitors.ts): no ticket.
 */
export function pageTicket(
  plan: PagePlan,
  o: {
    visitorKey: VisitorKey;
    ticketKey: Buffer;
    environment: string;
    /** The client's address (@app/client-address): the gate counts at most a few visitors per address. */
    address: string;
    renderFailures: RemotePackage[];
  },
): PagePlan['health'] {
  const served = ticketRemotes(plan.plan);
  if (Object.keys(served).length === 0 || !isCounted(o.visitorKey)) return null;
  // Only failures of releases this ticket serves can count against them.
  const renderFailures = o.renderFailures.filter((remote) => served[remote] !== undefined);
  return issueTicket(
    {
      visitorKey: o.visitorKey,
      environment: o.environment,
      address: addressKey(o.address),
      remotes: served,
      renderFailures,
    },
    o.ticketKey,
  );
}
