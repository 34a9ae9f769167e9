// The administration CLI's entry (`pnpm admin <command>` through tsx; `node dist/admin.mjs <command>` in
// production, built by build.mjs like the server): the commands are src/cli.ts's runCli. It runs on import,
// with no check that it is the main module: a release reached through a symlink (/opt/risk-intel/current)
// has a module URL that is not argv[1], and such a check would then silently do nothing.
import { runCli } from './cli';

process.exitCode = await runCli(process.argv.slice(2));
