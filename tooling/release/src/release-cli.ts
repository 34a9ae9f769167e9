import { parseArgs } from 'node:util';
import { parseRemote } from './args';
import { runMain } from './cli-main';
import { createContext } from './context';
import { typedPath } from './deploy-target';
import { release } from './release';

const USAGE = `Usage: pnpm release <remote> [--to <url>] [--env <name>] [--no-build] [--dist <dir>] [--force]

Builds the remote (unless --no-build or --dist), describes it (release.json: version id, commit, shared
versions, entry digest) and uploads it to the deploy API as one compressed bundle. The API stores it as an
immutable version after its compatibility gate; the same bytes again are a no-op. The last line printed
is the version id.

  --to <url>    the deploy API (default DEPLOY_API_URL, else http://127.0.0.1:\${API_PORT:-4000})
  --env <name>  the environment the release is for (default DEPLOY_ENV, else production): the token must
                cover it, and the release is audited there
  --no-build    release the current <remote>/dist as it is
  --dist <dir>  release this folder instead (relative to where you typed the command)
  --force       release even if it conflicts with the live shell's shared versions (audited)

Credential: DEPLOY_TOKEN (a deploy token allowed to change <remote> in that environment), else the local
API's own token file (<DEPLOY_DIR>/local-deploy-token; used only for a local API). Old releases are
removed by the API (RELEASE_KEEP there; deployed versions and those a live preview link names are kept).

Exit codes: 0 released (or already released), 1 refused or failed.`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    allowNegative: true,
    options: {
      build: { type: 'boolean', default: true },
      dist: { type: 'string' },
      force: { type: 'boolean', default: false },
      to: { type: 'string' },
      env: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new Error(`release takes one remote, got ${positionals.join(' ')}`);
  const remote = parseRemote(positionals[0]);
  const ctx = createContext({ to: values.to, env: values.env });
  const dist = values.dist ? typedPath(values.dist) : undefined;
  const result = await release(
    { remote, root: ctx.root, build: values.build, dist, force: values.force, now: ctx.now },
    ctx.client,
  );
  const { info } = result;
  if (result.forcedConflicts.length > 0) {
    console.error(
      `warning: released despite ${result.forcedConflicts.length} compatibility conflict(s) (audited):`,
    );
    for (const conflict of result.forcedConflicts) console.error(`  - ${conflict}`);
  }
  console.log(
    result.alreadyReleased
      ? `${remote} ${info.version}: already released (same content); nothing was stored`
      : `released ${remote} ${info.version}: ${info.files} files, ${(info.bytes / 1024).toFixed(0)} KiB${info.dirty ? ' (from a tree with uncommitted changes)' : ''}`,
  );
  console.log(info.version);
  return 0;
}

await runMain(main);
