import { parseArgs } from 'node:util';
import type { DeployChangeResult } from '@app/contracts/deploy';
import { isVersionId } from '@app/rollout';
import {
  parsePercent,
  parsePositiveInt,
  parsePositiveNumber,
  parseRemote,
  parseSteps,
  parseVersion,
} from './args';
import { runMain } from './cli-main';
import {
  abort,
  bootstrap,
  formatChange,
  promote,
  promoteTo,
  rollback,
  setPercent,
  startCanary,
} from './commands';
import { createContext } from './context';
import { environmentName } from './deploy-target';
import { RolloutError } from './errors';
import { GATE_OPTIONS, GATE_USAGE, gatePolicyFrom } from './gate-options';
import { apiHealthSource } from './health';
import { createOverride, formatOverrideLink, revokeOverride } from './override';
import { createPreview, formatPreviewLink, formatPreviews, listPreviews, revokePreview } from './preview';
import { formatHistory, formatStatus, history, statusReport } from './status';
import { watch } from './watch';

const USAGE = `Usage: pnpm rollout <command> [options] [--to <url>] [--env <name>]

  status [--json]                                   stable, canary and health of every remote, then
                                                    every live version against the live shell
  start <remote> <version> --percent N [--force]    start a canary (a released version; compatibility-gated)
  set <remote> --percent N                          change the canary's share of visitors (0-100)
  promote <remote>                                  the canary becomes stable
  abort <remote>                                    drop the canary
  rollback <remote> [--to-version <version>]        back to the previous stable (or to a released version)
  bootstrap <remote> <version> [--replace]          a first stable for a remote that has none (--replace: any)
  promote-to <env> <remote> <version> [--percent N] [--from <env>] [--force]
                                                    the version <from> runs (default: the environment before
                                                    <env>) comes to <env>, the same bytes: a canary at N %,
                                                    or stable without --percent
  history <remote> [--json] [--limit N]             audit entries, newest first
  watch <remote> [--steps 1,10,50,100] [--interval 30] [--max-wait <seconds>]
        ${GATE_USAGE}
                                                    advance the canary step by step while its visitors
                                                    fare as well as stable's (errors, LCP, INP, CLS)
  preview <remote> <version> [--hours 4] [--base-url <url>]
                                                    a link that shows that version in one browser, in this
                                                    environment only, until it expires (at most 168 hours)
                                                    or is revoked; prints its id, its expiry and the link
  previews [--remote <remote>] [--json]             the environment's preview links: active ones first,
                                                    then those expired or revoked in the last week
  revoke-preview <id>                               ends a preview link at once (the id previews lists)
  override <remote> <url> [--hours 2] [--base-url <url>]
                                                    a link that makes one browser load <remote> from a dev
                                                    server (<url>: its mf-manifest.json; loopback or private
                                                    network only, or DEV_OVERRIDE_ORIGINS on the API), in this
                                                    environment only; prints its id and the link
  revoke-override <id>                              ends an override link at once

Every command talks to the deploy API: --to <url>, else DEPLOY_API_URL, else http://127.0.0.1:\${API_PORT:-4000}.
Credential: DEPLOY_TOKEN, else the local API's token file (<DEPLOY_DIR>/local-deploy-token, local API only).
Environment: --env, else DEPLOY_ENV, else production. Also PREVIEW_BASE_URL.
Exit codes: 0 done, 1 refused or failed (412: the deployment changed meanwhile; look and try again),
2 watch rolled the canary back, 3 watch stopped without a decision (--max-wait).`;

type Spec = NonNullable<Parameters<typeof parseArgs>[0]>['options'];
const OPTIONS: Record<string, Spec> = {
  status: { json: { type: 'boolean' } },
  start: { percent: { type: 'string' }, force: { type: 'boolean' } },
  set: { percent: { type: 'string' } },
  promote: {},
  abort: {},
  // --to names the API everywhere; rollback's target is --to-version (a version id given to --to still works).
  rollback: { 'to-version': { type: 'string' } },
  bootstrap: { replace: { type: 'boolean' } },
  'promote-to': { percent: { type: 'string' }, from: { type: 'string' }, force: { type: 'boolean' } },
  history: { json: { type: 'boolean' }, limit: { type: 'string' } },
  watch: {
    steps: { type: 'string' },
    interval: { type: 'string' },
    'max-wait': { type: 'string' },
    ...GATE_OPTIONS,
  },
  preview: { hours: { type: 'string' }, 'base-url': { type: 'string' } },
  previews: { remote: { type: 'string' }, json: { type: 'boolean' } },
  'revoke-preview': {},
  override: { hours: { type: 'string' }, 'base-url': { type: 'string' } },
  'revoke-override': {},
};

const printUpdate = (result: DeployChangeResult) => console.log(formatChange(result));

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
    options: {
      ...spec,
      to: { type: 'string' },
      env: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const args = parsed.positionals;
  // Each command's options are declared above; parseArgs has refused any other.
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const str = (name: string) => values[name] as string | undefined;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const wanted =
    { start: 2, preview: 2, override: 2, bootstrap: 2, 'promote-to': 3, status: 0, previews: 0 }[command] ??
    1;
  if (args.length > wanted)
    throw new RolloutError(`${command} takes ${wanted} argument(s), got: ${args.join(' ')}`);
  // rollback --to <version> is older than --to <url>: a version id there is rollback's target.
  let to = str('to');
  let rollbackTo = str('to-version');
  if (command === 'rollback' && to !== undefined && isVersionId(to)) {
    if (rollbackTo !== undefined) throw new RolloutError('give the version once: --to-version <version>');
    rollbackTo = to;
    to = undefined;
  }
  const ctx = createContext({ to, env: str('env') });

  switch (command) {
    case 'status': {
      const report = await statusReport(ctx, apiHealthSource(ctx.client));
      console.log(values.json ? JSON.stringify(report, null, 2) : formatStatus(report));
      return 0;
    }
    case 'start':
      printUpdate(
        await startCanary(ctx, {
          remote: parseRemote(args[0]),
          version: parseVersion(args[1]),
          percent: parsePercent(str('percent')),
          force: values.force === true,
        }),
      );
      return 0;
    case 'set':
      printUpdate(
        await setPercent(ctx, { remote: parseRemote(args[0]), percent: parsePercent(str('percent')) }),
      );
      return 0;
    case 'promote':
      printUpdate(await promote(ctx, { remote: parseRemote(args[0]) }));
      return 0;
    case 'abort':
      printUpdate(await abort(ctx, { remote: parseRemote(args[0]) }));
      return 0;
    case 'rollback': {
      const target = rollbackTo === undefined ? undefined : parseVersion(rollbackTo);
      printUpdate(await rollback(ctx, { remote: parseRemote(args[0]), to: target }));
      return 0;
    }
    case 'bootstrap':
      printUpdate(
        await bootstrap(ctx, {
          remote: parseRemote(args[0]),
          version: parseVersion(args[1]),
          replace: values.replace === true,
        }),
      );
      return 0;
    case 'promote-to': {
      if (!args[0])
        throw new RolloutError('name the environment to promote to: promote-to <env> <remote> <version>');
      const environment = environmentName(args[0], 'the target environment');
      if (str('env') !== undefined && str('env') !== environment)
        throw new RolloutError(`promote-to names its environment itself (${environment}); leave out --env`);
      const from = str('from') === undefined ? undefined : environmentName(str('from') as string, '--from');
      printUpdate(
        await promoteTo(ctx, {
          environment,
          remote: parseRemote(args[1]),
          version: parseVersion(args[2]),
          percent: str('percent') === undefined ? undefined : parsePercent(str('percent')),
          from,
          force: values.force === true,
        }),
      );
      return 0;
    }
    case 'history': {
      const remote = parseRemote(args[0]);
      const limit =
        str('limit') === undefined ? undefined : parsePositiveInt(str('limit') as string, '--limit');
      const result = await history(ctx, remote, limit);
      console.log(values.json ? JSON.stringify(result, null, 2) : formatHistory(remote, result.entries));
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
      const result = await watch(ctx, apiHealthSource(ctx.client), options);
      return { promoted: 0, 'rolled-back': 2, stopped: 3 }[result.outcome];
    }
    case 'preview': {
      const hours =
        str('hours') === undefined ? undefined : parsePositiveNumber(str('hours') as string, '--hours');
      const link = await createPreview(ctx, {
        remote: parseRemote(args[0]),
        version: parseVersion(args[1]),
        hours,
        baseUrl: str('base-url'),
      });
      console.log(formatPreviewLink(link));
      return 0;
    }
    case 'previews': {
      const remote = str('remote') === undefined ? undefined : parseRemote(str('remote'));
      const list = await listPreviews(ctx, remote);
      console.log(values.json ? JSON.stringify(list, null, 2) : formatPreviews(list));
      return 0;
    }
    case 'revoke-preview': {
      if (!args[0]) throw new RolloutError('name the preview link to revoke: revoke-preview <id>');
      const revoked = await revokePreview(ctx, args[0]);
      console.log(
        `preview ${revoked.id} (${revoked.remote} ${revoked.version}) in "${revoked.environment}" is revoked since ${revoked.revokedAt} (by ${revoked.revokedBy})`,
      );
      return 0;
    }
    case 'override': {
      if (!args[1]) throw new RolloutError('give the remote and the dev server URL: override <remote> <url>');
      const hours =
        str('hours') === undefined ? undefined : parsePositiveNumber(str('hours') as string, '--hours');
      const link = await createOverride(ctx, {
        remote: parseRemote(args[0]),
        url: args[1],
        hours,
        baseUrl: str('base-url'),
      });
      console.log(formatOverrideLink(link));
      return 0;
    }
    case 'revoke-override': {
      if (!args[0]) throw new RolloutError('name the override link to revoke: revoke-override <id>');
      const revoked = await revokeOverride(ctx, args[0]);
      // How much it was used, as the edges reported it (older APIs do not say).
      const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
      const used =
        revoked.pageViews === undefined
          ? ''
          : `; used: ${count(revoked.pageViews, 'page view')}, ${count(revoked.opens ?? 0, 'open')}`;
      console.log(
        `override ${revoked.id} (${revoked.remote} from ${revoked.url}) in "${revoked.environment}" is revoked since ${revoked.revokedAt} (by ${revoked.revokedBy})${used}`,
      );
      return 0;
    }
  }
  return 1;
}

await runMain(main);
