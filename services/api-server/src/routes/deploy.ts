import {
  DEPLOY_BODIES,
  DEPLOY_PATHS,
  DEPLOY_VERBS,
  type DeployHealth,
  type DeployPreviewList,
  type DeployRenders,
  type DeployVerb,
  PREVIEW_DEFAULT_HOURS,
  type PreviewLink,
  PreviewRequestSchema,
} from '@app/contracts/deploy';
import {
  CompatRefused,
  DeployRefused,
  isRemotePackage,
  ManifestError,
  type RemotePackage,
} from '@app/rollout';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { AppContext } from '../context';
import { HttpError, parseWith } from '../errors';
import { commandOf, gatedVersion } from '../services/deploy-commands';
import { CompatRefusalError } from '../services/deploy-compat';
import { DeployConflict } from '../services/deployments';
import { requireDeployScope, requireEnvironment, requireRemoteScope } from './deploy-auth';
import { body, type C, type Env } from './http-helpers';

/** A command's body is a few fields; a preview request too. */
const SMALL_BODY_LIMIT = 16 * 1024;
const HISTORY_LIMIT = 50;

const etag = (revision: number) => `"${revision}"`;

function remoteOf(c: C): RemotePackage {
  const remote = c.req.param('remote') ?? '';
  if (!isRemotePackage(remote)) throw new HttpError(404, `Unknown remote "${remote}"`);
  return remote;
}

/** If-Match: "<revision>" (quotes optional, W/ tolerated). Null when absent. */
function ifMatch(c: C): number | null {
  const raw = c.req.header('if-match');
  if (raw === undefined || raw.trim() === '') return null;
  const match = /^(?:W\/)?"?(\d{1,12})"?$/.exec(raw.trim());
  if (!match) throw new HttpError(400, `If-Match must be the deployment's revision, like "12" (got ${raw})`);
  return Number(match[1]);
}

const Iso = v.pipe(v.string(), v.isoTimestamp('since must be an ISO timestamp'));
const HealthQuery = v.object({
  version: v.pipe(v.string('version is required'), v.regex(/^\S{1,80}$/, 'version is required')),
  since: v.optional(Iso),
});
const LimitQuery = v.pipe(
  v.string(),
  v.regex(/^\d{1,4}$/, 'limit must be a whole number from 1 to 1000'),
  v.transform(Number),
  v.minValue(1, 'limit must be a whole number from 1 to 1000'),
  v.maxValue(1000, 'limit must be a whole number from 1 to 1000'),
);

/**
 * The deploy API (docs/decisions/0030-deploy-control-plane.md) but the public feed and the release uploads
 * (routes/deploy-feed.ts, routes/deploy-releases.ts): every call carries a deploy token whose scope covers
 * the environment and remote it names.
 */
export function registerDeployRoutes(app: Hono<Env>, ctx: AppContext) {
  const { config, deployments } = ctx;
  const environments = config.deploy.environments;

  app.get(DEPLOY_PATHS.token, async (c) => c.json(await requireDeployScope(c)));

  app.get(DEPLOY_PATHS.environments, async (c) => {
    await requireDeployScope(c);
    const revisions = await deployments.revisions();
    return c.json({
      environments: environments.map((environment) => ({
        environment,
        revision: revisions.get(environment)?.deployment ?? 0,
      })),
    });
  });

  app.get(DEPLOY_PATHS.environment(':env'), async (c) => {
    const environment = c.req.param('env') ?? '';
    await requireDeployScope(c, { environment });
    const state = await deployments.state(environment);
    return c.json(state, 200, { ETag: etag(state.revision), 'Cache-Control': 'no-store' });
  });

  app.get(DEPLOY_PATHS.history(':env', ':remote'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const remote = remoteOf(c);
    await requireDeployScope(c, { remote, environment });
    const raw = c.req.query('limit');
    const limit = raw === undefined ? HISTORY_LIMIT : parseWith(LimitQuery, raw);
    return c.json({ environment, remote, entries: await deployments.history(environment, remote, limit) });
  });

  app.get(DEPLOY_PATHS.health(':env', ':remote'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const remote = remoteOf(c);
    await requireDeployScope(c, { remote, environment });
    const q = parseWith(HealthQuery, { version: c.req.query('version'), since: c.req.query('since') });
    const since = q.since ? new Date(q.since) : undefined;
    // This environment's page views only (a staging page view says nothing about production), and at most
    // ADDRESS_VISITOR_CAP visitors per address group.
    const sample = await ctx.rollout.health.sample(environment, remote, q.version, since);
    const answer: DeployHealth = {
      remote,
      version: q.version,
      since: since ? since.toISOString() : null,
      visitors: sample.visitors,
      addresses: sample.addresses,
      overCap: sample.overCap,
    };
    return c.json(answer);
  });

  // The edges' server renders of one version (the gate's server signals, issue 48), summed over the window.
  app.get(DEPLOY_PATHS.renders(':env', ':remote'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const remote = remoteOf(c);
    await requireDeployScope(c, { remote, environment });
    const q = parseWith(HealthQuery, { version: c.req.query('version'), since: c.req.query('since') });
    const since = q.since ? new Date(q.since) : undefined;
    const answer: DeployRenders = {
      remote,
      version: q.version,
      since: since ? since.toISOString() : null,
      figures: await ctx.rollout.renders.figures(environment, remote, q.version, since),
    };
    return c.json(answer);
  });

  // A link that pins one remote to one released version in the browser that opens it (QA before a canary),
  // in this environment only: stored (its token's hash), revocable, and audited (services/deploy-previews.ts).
  app.post(DEPLOY_PATHS.preview(':env', ':remote'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const remote = remoteOf(c);
    const scope = await requireDeployScope(c, { remote, environment });
    const input = parseWith(PreviewRequestSchema, (await body(c, SMALL_BODY_LIMIT)) ?? {});
    const base = new URL(input.baseUrl ?? config.deploy.previewBaseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new HttpError(400, `the preview base URL must be http or https, got "${input.baseUrl}"`);
    }
    const { token, preview } = await ctx.previews.create({
      environment,
      remote,
      version: input.version,
      hours: input.hours ?? PREVIEW_DEFAULT_HOURS,
      actor: scope.name,
      gate: () => ctx.compatibility.checkRelease(environment, remote, input.version),
      force: input.force ?? false,
    });
    const link: PreviewLink = {
      id: preview.id,
      url: `${base.origin}${base.pathname.replace(/\/+$/, '')}/?preview=${token}`,
      token,
      expiresAt: preview.expiresAt,
      environment,
      remote,
      version: preview.version,
    };
    return c.json(link);
  });

  // The environment's links, limited to the remotes the token may change (an admin token: every remote).
  app.get(DEPLOY_PATHS.previews(':env'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const scope = await requireDeployScope(c, { environment });
    const asked = c.req.query('remote');
    if (asked !== undefined && !isRemotePackage(asked)) throw new HttpError(404, `Unknown remote "${asked}"`);
    if (asked !== undefined) requireRemoteScope(scope, asked);
    const list: DeployPreviewList = {
      environment,
      previews: await ctx.previews.list(environment, asked ? [asked] : scope.remotes),
    };
    return c.json(list);
  });

  app.delete(DEPLOY_PATHS.previewLink(':env', ':id'), async (c) => {
    const environment = c.req.param('env') ?? '';
    const scope = await requireDeployScope(c, { environment });
    const revoked = await ctx.previews.revoke(environment, c.req.param('id') ?? '', {
      actor: scope.name,
      tokenName: scope.name,
      mayChange: (remote) => requireRemoteScope(scope, remote),
    });
    return c.json(revoked);
  });

  // Last: its `:verb` would also match the preview route above.
  app.post(DEPLOY_PATHS.command(':env', ':remote', ':verb' as DeployVerb), async (c) => {
    const environment = c.req.param('env') ?? '';
    const verb = (c.req.param('verb') ?? '') as DeployVerb;
    if (!(DEPLOY_VERBS as readonly string[]).includes(verb)) {
      throw new HttpError(404, `Unknown command "${verb}" (known: ${DEPLOY_VERBS.join(', ')})`);
    }
    const remote = remoteOf(c);
    const scope = await requireDeployScope(c, { remote, environment });
    const expected = ifMatch(c);
    const input = parseWith(DEPLOY_BODIES[verb], (await body(c, SMALL_BODY_LIMIT)) ?? {});
    if (expected === null) {
      const { revision } = await deployments.state(environment);
      return c.json(
        {
          error: `Send If-Match: "<revision>" with every change (the deployment is at revision ${revision})`,
          revision,
        },
        428,
      );
    }
    const extras: Parameters<typeof commandOf>[3] = {};
    if (verb === 'adopt') {
      const from = (input as { from?: string }).from ?? environments[environments.indexOf(environment) - 1];
      if (!from) {
        throw new HttpError(
          400,
          `"${environment}" is the first environment; name the one to take the version from`,
        );
      }
      requireEnvironment(c.get('deployAuth')!, from);
      if (from === environment) throw new HttpError(400, 'A version is adopted from another environment');
      extras.source = { environment: from, manifest: (await deployments.state(from)).manifest };
    }
    // The gate runs before the transaction (it reads files); the compare-and-swap makes sure the state it
    // saw (which canary promote would make stable) is the one changed, or the change is a 412.
    const gated = gatedVersion(verb, remote, input, (await deployments.state(environment)).manifest);
    if (gated) extras.gate = await ctx.compatibility.checkRelease(environment, remote, gated);
    try {
      const result = await deployments.change(
        environment,
        expected,
        scope.name,
        commandOf(verb, remote, input, extras),
      );
      return c.json(
        { environment, revision: result.revision, manifest: result.manifest, entries: result.entries },
        200,
        { ETag: etag(result.revision) },
      );
    } catch (error) {
      if (error instanceof DeployConflict) {
        return c.json(
          {
            error: `The deployment changed meanwhile (now at revision ${error.revision})`,
            revision: error.revision,
          },
          412,
          { ETag: etag(error.revision) },
        );
      }
      if (error instanceof CompatRefused) throw new CompatRefusalError(error.message, error.conflicts);
      if (error instanceof DeployRefused || error instanceof ManifestError)
        throw new HttpError(409, error.message);
      throw error;
    }
  });
}
