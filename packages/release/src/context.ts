import { type RolloutPaths, rolloutPaths } from '@app/rollout/node';
import { actorOf } from './audit';

/** What every command needs from outside, injectable so tests run on temp folders with a fixed clock. */
export interface RolloutContext {
  paths: RolloutPaths;
  env: Record<string, string | undefined>;
  actor: string;
  now: () => Date;
  /** Human-readable progress; the CLIs print it on stdout. */
  log: (line: string) => void;
}

export function createContext(overrides: Partial<RolloutContext> = {}): RolloutContext {
  const env = overrides.env ?? process.env;
  return {
    env,
    paths: overrides.paths ?? rolloutPaths(env),
    actor: overrides.actor ?? actorOf(env),
    now: overrides.now ?? (() => new Date()),
    log: overrides.log ?? ((line) => console.log(line)),
  };
}
