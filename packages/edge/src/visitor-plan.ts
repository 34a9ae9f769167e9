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
import type { RawConfig } from './deployment-state';
import { userIdOf, type VisitorKey } from './visitor-cookie';

export function visitorPlan(o: {
  config: RawConfig;
  manifest: DeploymentManifest | null;
  visitorKey: VisitorKey;
  preview: PreviewState;
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
  });
  return { config: o.config, plan, preview: o.preview, userId: userIdOf(o.visitorKey) };
}
