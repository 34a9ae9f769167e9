import { DEPLOY_PATHS, type ReleaseInfo } from '@app/contracts/deploy';
import { isRemotePackage, isVersionId, type RemotePackage } from '@app/rollout';
import type { Hono } from 'hono';
import type { AppContext } from '../context';
import { HttpError, notFound } from '../errors';
import { DEFAULT_MAX_FILES } from '../services/release-bundle';
import { ReleaseCatalog, releaseStoreAt } from '../services/release-catalog';
import { ReleaseUploads } from '../services/release-upload';
import { requireDeployScope } from './deploy-auth';
import type { C, Env } from './http-helpers';

function remoteParam(c: C): RemotePackage {
  const remote = c.req.param('remote');
  if (!isRemotePackage(remote)) throw notFound(`Unknown remote "${remote}"`);
  return remote;
}

function versionParam(c: C): string {
  const version = c.req.param('version') ?? '';
  if (!isVersionId(version))
    throw new HttpError(400, `"${version}" is not a release version id (like 1.0.0-3fa2b1c9d0)`);
  return version;
}

/**
 * The release store over HTTP (docs/decisions/0030-deploy-control-plane.md): a pipeline uploads a bundle
 * (`pnpm release`) for an environment (`?env=`), and reads what is released. An upload needs a token whose
 * scope covers the remote and that environment; a read, one that covers the remote.
 */
export function registerDeployReleaseRoutes(app: Hono<Env>, ctx: AppContext): ReleaseCatalog {
  const { config } = ctx;
  const catalog = new ReleaseCatalog(ctx.sql, releaseStoreAt(config.rollout.paths.store), ctx.now);
  const uploads = new ReleaseUploads(ctx.sql, catalog, {
    limits: { maxBytes: config.deploy.bundleMaxBytes, maxFiles: DEFAULT_MAX_FILES },
    keep: config.deploy.releaseKeep,
    compatibility: ctx.compatibility,
    now: ctx.now,
  });

  app.put(DEPLOY_PATHS.release(':remote', ':version'), async (c) => {
    const remote = remoteParam(c);
    const version = versionParam(c);
    // The release is audited in the environment it is for, and only a token for that environment and
    // remote may make it (issue 44): a token for staging cannot put a version where production's audit is.
    const environment = c.req.query('env');
    if (!environment) {
      throw new HttpError(
        400,
        `Name the environment this release is for: ?env=<environment> (one of ${config.deploy.environments.join(', ')}; pnpm release sends its --env, else DEPLOY_ENV, else production)`,
      );
    }
    const scope = await requireDeployScope(c, { remote, environment });
    // Refused before a byte is read when the sender says up front that it is too large.
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > config.deploy.bundleMaxBytes) {
      c.header('Connection', 'close');
      throw new HttpError(
        413,
        `The release bundle is larger than ${config.deploy.bundleMaxBytes} bytes (DEPLOY_BUNDLE_MAX_BYTES)`,
      );
    }
    try {
      const { status, result } = await uploads.upload({
        remote,
        version,
        body: c.req.raw.body,
        force: ['1', 'true'].includes(c.req.query('force') ?? ''),
        actor: scope.name,
        environment,
      });
      return c.json(result, status);
    } catch (error) {
      // The rest of an oversized or refused body is not worth reading: close once answered.
      if (error instanceof HttpError) c.header('Connection', 'close');
      throw error;
    }
  });

  app.get(DEPLOY_PATHS.releases(':remote'), async (c) => {
    const remote = remoteParam(c);
    await requireDeployScope(c, { remote });
    const releases: ReleaseInfo[] = (await catalog.list(remote)).map((r) => r.info);
    return c.json({ remote, releases });
  });

  app.get(DEPLOY_PATHS.release(':remote', ':version'), async (c) => {
    const remote = remoteParam(c);
    const version = versionParam(c);
    await requireDeployScope(c, { remote });
    const release = await catalog.get(remote, version);
    if (!release) throw notFound(`${remote} ${version} is not released`);
    return c.json(release.info);
  });

  return catalog;
}
