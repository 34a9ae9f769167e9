import { parseArgs } from 'node:util';
import { parsePositiveInt, parseRemote } from './args';
import { runMain } from './cli-main';
import { createContext } from './context';
import { release } from './release';

const USAGE = `Usage: pnpm release <remote> [--no-build] [--dist <dir>] [--force] [--keep N]

Builds the remote (unless --no-build or --dist) and publishes its dist as a new immutable version in the
release store (RELEASE_STORE_DIR, default releases/). The last line printed is the version id.

  --no-build    release the current <remote>/dist as it is
  --dist <dir>  release this folder instead (relative to where you typed the command)
  --force       release even if it conflicts with the live shell's shared versions (audited)
  --keep N      keep the newest N versions of the remote (default RELEASE_KEEP or 10; deployed ones are always kept)

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
      keep: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new Error(`release takes one remote, got ${positionals.join(' ')}`);
  const remote = parseRemote(positionals[0]);
  const keep = values.keep === undefined ? undefined : parsePositiveInt(values.keep, '--keep');
  const ctx = createContext();
  const result = await release(
    { remote, build: values.build, dist: values.dist, force: values.force, keep },
    ctx,
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
      ? `${remote} ${info.version} is already released (same content); nothing was written`
      : `released ${remote} ${info.version}: ${info.files} files, ${(info.bytes / 1024).toFixed(0)} KiB${info.dirty ? ' (from a tree with uncommitted changes)' : ''}`,
  );
  if (result.removed.length > 0)
    console.log(`removed old releases of ${remote}: ${result.removed.join(', ')}`);
  console.log(info.version);
  return 0;
}

await runMain(main);
