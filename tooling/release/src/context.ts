import { rolloutPaths } from '@app/rollout/node';
import { DeployClient } from './deploy-client';
import { resolveTarget } from './deploy-target';

/** What every command needs from outside, injectable so tests point it at their own API with a fixed clock. */
export interface RolloutContext {
  client: DeployClient;
  /** The environment the command acts on (--env, else DEPLOY_ENV, else production). */
  environment: string;
  /** The repository: where `<remote>/dist` and the build script are. */
  root: string;
  now: () => Date;
  /** Human-readable progress; the CLIs print it on stdout. */
  log: (line: string) => void;
}

export function createContext(
  options: { to?: string; env?: string; processEnv?: Record<string, string | undefined> } & Partial<
    Pick<RolloutContext, 'now' | 'log' | 'root'>
  > = {},
): RolloutContext {
  const env = options.processEnv ?? process.env;
  const client = new DeployClient(resolveTarget({ to: options.to, env: options.env }, env));
  return {
    client,
    environment: client.environment,
    root: options.root ?? rolloutPaths({ ...env, DEPLOY_ENV: undefined }).root,
    now: options.now ?? (() => new Date()),
    log: options.log ?? ((line) => console.log(line)),
  };
}
