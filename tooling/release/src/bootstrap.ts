import fs from 'node:fs';
import path from 'node:path';
import type { DeployState } from '@app/contracts/deploy';
import { REMOTE_PACKAGES, type RemotePackage } from '@app/rollout';
import { createContext, type RolloutContext } from './context';
import { DeployApiError } from './deploy-client';
import { release } from './release';

export interface BootstrapResult {
  remote: RemotePackage;
  /** The version of the remote's current build; null when it has no build (or it could not be released). */
  version: string | null;
  /** The stable version afterwards in the main environment (the target's: DEPLOY_ENV, else production). */
  stable: string | null;
  /** The stable version afterwards in each environment bootstrapped (null: none, or it could not be read). */
  stables: Record<string, string | null>;
}

export interface BootstrapOptions {
  /** The API (default: DEPLOY_API_URL, else http://127.0.0.1:${API_PORT ?? 4000}). */
  apiUrl?: string;
  /** A deploy token (default: DEPLOY_TOKEN, else the local API's token file). */
  token?: string;
  /** The process environment to read those defaults from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Environments to give a stable version (default: every one the API knows, DEPLOY_ENVIRONMENTS). */
  environments?: string[];
  /** The repository whose `<remote>/dist` folders are released (default: this one). */
  root?: string;
  log?: (line: string) => void;
  /** Every remote's current build becomes its stable at once, whatever it had (ROLLOUT_FOLLOW_BUILDS=1). */
  followBuilds?: boolean;
}

/** Upload each built remote's dist (the same bytes again are a no-op); a remote's trouble is only logged. */
async function releaseBuilds(ctx: RolloutContext, log: (line: string) => void) {
  const built = new Map<RemotePackage, string>();
  for (const remote of REMOTE_PACKAGES) {
    if (!fs.existsSync(path.join(ctx.root, remote, 'dist', 'mf-manifest.json'))) continue;
    try {
      const { info, alreadyReleased } = await release({ remote, root: ctx.root, build: false }, ctx.client);
      built.set(remote, info.version);
      if (!alreadyReleased) log(`${remote}: released ${info.version}`);
    } catch (error) {
      log(`${remote}: could not release the current build: ${(error as Error).message}`);
    }
  }
  return built;
}

/**
 * For `pnpm start` (scripts/start.mjs, the cluster): releases each remote's current build through the
 * deploy API (no build; the API's compatibility gate checks it against the shell), then, in every
 * environment, gives each remote without a stable version its current build as stable (the `bootstrap`
 * verb, audited with the local token's name). A remote that already has a stable keeps it; the log says
 * how to roll the new build out. With `followBuilds` the current build replaces whatever stable there was
 * (the e2e suite; a developer who wants `pnpm start` to show what they just built). Never throws for one
 * remote's or one environment's trouble: the app should still start.
 */
export async function bootstrapReleases(options: BootstrapOptions = {}): Promise<BootstrapResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const processEnv = { ...(options.env ?? process.env) };
  if (options.token) processEnv.DEPLOY_TOKEN = options.token;
  let ctx: RolloutContext;
  try {
    ctx = createContext({ to: options.apiUrl, processEnv, root: options.root, log });
  } catch (error) {
    log(`cannot bootstrap the deployments: ${(error as Error).message}`);
    return REMOTE_PACKAGES.map((remote) => ({ remote, version: null, stable: null, stables: {} }));
  }
  const built = await releaseBuilds(ctx, log);
  const follow = options.followBuilds ?? false;

  let environments = options.environments;
  if (!environments) {
    try {
      environments = (await ctx.client.environments()).environments.map((e) => e.environment);
    } catch (error) {
      log(`cannot list the environments (${(error as Error).message}); bootstrapping staging and production`);
      environments = ['staging', 'production'];
    }
  }

  const states = new Map<string, DeployState | null>();
  for (const environment of environments) {
    states.set(environment, await bootstrapEnvironment(ctx, environment, built, follow, log));
  }

  const main = ctx.environment;
  return REMOTE_PACKAGES.map((remote) => {
    const version = built.get(remote) ?? null;
    const stables = Object.fromEntries(
      environments.map((e) => [e, states.get(e)?.manifest.remotes[remote]?.stable ?? null]),
    );
    const deployment = states.get(main)?.manifest.remotes[remote];
    if (version && deployment && deployment.stable !== version) {
      log(
        deployment.canary?.version === version
          ? `${remote}: your current build ${version} is the canary at ${deployment.canary.percent} % in "${main}"; live stable is ${deployment.stable}`
          : `${remote}: your current build ${version} is released; live stable in "${main}" is ${deployment.stable} (pnpm rollout start ${remote} ${version} --percent 10 --env ${main})`,
      );
    }
    return { remote, version, stable: deployment?.stable ?? null, stables };
  });
}

/** One environment: a `bootstrap` per remote that needs one, each with If-Match (a 412 is read again). */
async function bootstrapEnvironment(
  ctx: RolloutContext,
  environment: string,
  built: Map<RemotePackage, string>,
  follow: boolean,
  log: (line: string) => void,
): Promise<DeployState | null> {
  let state: DeployState;
  try {
    state = await ctx.client.state(environment);
  } catch (error) {
    log(`cannot read the deployment "${environment}": ${(error as Error).message}`);
    return null;
  }
  for (const [remote, version] of built) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const now = state.manifest.remotes[remote];
      // Checked against the state just read: someone may have set a stable meanwhile (another instance).
      if (now && (!follow || now.stable === version)) break;
      try {
        const done = await ctx.client.command(
          remote,
          'bootstrap',
          { version, ...(follow ? { replace: true } : {}) },
          state.revision,
          environment,
        );
        state = { ...state, revision: done.revision, manifest: done.manifest };
        break;
      } catch (error) {
        if (error instanceof DeployApiError && error.status === 412 && attempt < 3) {
          try {
            state = await ctx.client.state(environment);
            continue;
          } catch {}
        }
        log(`${remote}: could not set its stable version in "${environment}": ${(error as Error).message}`);
        break;
      }
    }
  }
  return state;
}
