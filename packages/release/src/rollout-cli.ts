import { parseArgs } from 'node:util';
import {
  parsePercent,
  parsePositiveInt,
  parsePositiveNumber,
  parseRemote,
  parseSteps,
  parseVersion,
} from './args';
import { runMain } from './cli-main';
import { abort, promote, rollback, setPercent, startCanary } from './commands';
import { createContext } from './context';
import { RolloutError } from './errors';
import { GATE_OPTIONS, GATE_USAGE, gatePolicyFrom } from './gate-options';
import { type ClosableHealthSource, openApiHealthSource } from './health';
import type { ManifestUpdate } from './manifest-store';
import { createPreview } from './preview';
import { formatHistory, formatStatus, history, statusReport } from './status';
import { watch } from './watch';

const USAGE = `Usage: pnpm rollout <command> [options]

  status [--json]                                   stable, canary and health of every remote
  start <remote> <version> --percent N [--force]    start a canary (a released version; compatibility-gated)
  set <remote> --percent N                          change the canary's share of visitors (0-100)
  promote <remote>                                  the canary becomes stable
  abort <remote>                                    drop the canary
  rollback <remote> [--to <version>]                back to the previous stable (or to a released version)
  history <remote> [--json] [--limit N]             audit entries, newest first
  watch <remote> [--steps 1,10,50,100] [--interval 30] [--max-wait <seconds>]
        ${GATE_USAGE}
                                                    advance the canary step by step while its visitors
                                                    fare as well as stable's (errors, LCP, INP, CLS)
  preview <remote> <version> [--hours 4] [--base-url <url>]
                                                    a link that shows that version in one browser

Environment: DEPLOY_ENV (default local), DEPLOY_DIR, RELEASE_STORE_DIR, DB_PATH, ROLLOUT_ACTOR, SHELL_MANIFEST,
PREVIEW_BASE_URL. Exit codes: 0 done, 1 refused or failed, 2 watch rolled the canary back, 3 watch stopped
without a decision (--max-wait).`;

type Spec = NonNullable<Parameters<typeof parseArgs>[0]>['options'];
const OPTIONS: Record<string, Spec> = {
  status: { json: { type: 'boolean' } },
  start: { percent: { type: 'string' }, force: { type: 'boolean' } },
  set: { percent: { type: 'string' } },
  promote: {},
  abort: {},
  rollback: { to: { type: 'string' } },
  history: { json: { type: 'boolean' }, limit: { type: 'string' } },
  watch: {
    steps: { type: 'string' },
    interval: { type: 'string' },
    'max-wait': { type: 'string' },
    ...GATE_OPTIONS,
  },
  preview: { hours: { type: 'string' }, 'base-url': { type: 'string' } },
};

function printUpdate({ manifest, entries }: ManifestUpdate): void {
  for (const e of entries) console.log(`${e.remote}: ${e.from ?? '(nothing)'} → ${e.to ?? '(nothing)'}`);
  console.log(`deployment "${manifest.environment}" is at revision ${manifest.revision}`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const spec = OPTIONS[command];
  if (!spec)
    throw new RolloutError(`unknown command "${command}"; commands: ${Object.keys(OPTIONS).join(', ')}`);
  const parsed = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { ...spec, help: { type: 'boolean', short: 'h' } },
  });
  const args = parsed.positionals;
  // Each command's options are declared above; parseArgs has refused any other.
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const str = (name: string) => values[name] as string | undefined;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const wanted = { start: 2, preview: 2, status: 0 }[command] ?? 1;
  if (args.length > wanted)
    throw new RolloutError(`${command} takes ${wanted} argument(s), got: ${args.join(' ')}`);
  const ctx = createContext();

  switch (command) {
    case 'status': {
      let health: ClosableHealthSource | null = null;
      let healthError: string | null = null;
      try {
        health = await openApiHealthSource(ctx.env);
      } catch (error) {
        healthError = (error as Error).message;
      }
      try {
        const report = await statusReport(ctx, health, healthError);
        console.log(values.json ? JSON.stringify(report, null, 2) : formatStatus(report));
      } finally {
        await health?.close();
      }
      return 0;
    }
    case 'start':
      printUpdate(
        startCanary(ctx, {
          remote: parseRemote(args[0]),
          version: parseVersion(args[1]),
          percent: parsePercent(str('percent')),
          force: values.force === true,
        }),
      );
      return 0;
    case 'set':
      printUpdate(setPercent(ctx, { remote: parseRemote(args[0]), percent: parsePercent(str('percent')) }));
      return 0;
    case 'promote':
      printUpdate(promote(ctx, { remote: parseRemote(args[0]) }));
      return 0;
    case 'abort':
      printUpdate(abort(ctx, { remote: parseRemote(args[0]) }));
      return 0;
    case 'rollback': {
      const to = str('to') === undefined ? undefined : parseVersion(str('to'));
      printUpdate(rollback(ctx, { remote: parseRemote(args[0]), to }));
      return 0;
    }
    case 'history': {
      const remote = parseRemote(args[0]);
      const limit =
        str('limit') === undefined ? undefined : parsePositiveInt(str('limit') as string, '--limit');
      const entries = history(ctx, remote, limit);
      const json = { environment: ctx.paths.environment, remote, entries };
      console.log(values.json ? JSON.stringify(json, null, 2) : formatHistory(remote, entries));
      return 0;
    }
    case 'watch': {
      const remote = parseRemote(args[0]);
      const seconds = (name: string) => {
        const value = str(name);
        return value === undefined ? undefined : parsePositiveNumber(value, `--${name}`) * 1000;
      };
      const options = {
        remote,
        steps: str('steps') === undefined ? undefined : parseSteps(str('steps') as string),
        intervalMs: seconds('interval'),
        maxWaitMs: seconds('max-wait'),
        gate: gatePolicyFrom(str),
      };
      const health = await openApiHealthSource(ctx.env);
      try {
        const result = await watch(ctx, health, options);
        return { promoted: 0, 'rolled-back': 2, stopped: 3 }[result.outcome];
      } finally {
        await health.close();
      }
    }
    case 'preview': {
      const hours =
        str('hours') === undefined ? undefined : parsePositiveNumber(str('hours') as string, '--hours');
      const link = createPreview(ctx, {
        remote: parseRemote(args[0]),
        version: parseVersion(args[1]),
        hours,
        baseUrl: str('base-url'),
      });
      console.log(`preview link (expires ${link.expiresAt}):`);
      console.log(link.url);
      return 0;
    }
  }
  return 1;
}

await runMain(main);
