import { parseArgs } from 'node:util';
import { runMain } from './cli-main';
import { createContext } from './context';
import { shellDistFrom, typedPath } from './deploy-target';
import { formatShipped, shipShell } from './ship-shell';

const USAGE = `Usage: pnpm ship-shell [--dist <folder>] [--force] [--to <url>]

Ships the shell: builds it for production into a fresh temporary folder (unless --dist), has the deploy
API check it (mf-manifest.json and mf-compat.json) against every live remote version in every environment,
and only then copies it into the live shell folder: content-hashed files first, then the entry files, then
index.html, each written under a temporary name and renamed over the old one. Nothing is deleted (pages
already open still load the previous chunks) and the live folder's config.json is kept. The edge serves
the folder per request: the new shell is live at the next page load.

  --dist <dir>  ship this build instead (relative to where you typed the command)
  --force       ship despite the API's refusal (audited there), or a build without mf-compat.json
                (then unchecked)
  --to <url>    the deploy API (default DEPLOY_API_URL, else http://127.0.0.1:\${API_PORT:-4000})

Credential: DEPLOY_TOKEN (an unscoped deploy token: pnpm admin deploy-token create --admin), else the local
API's own token file (<DEPLOY_DIR>/local-deploy-token; used only for a local API).
The live shell folder: SHELL_DIST, else <repo>/shell/dist.

Exit codes: 0 shipped, 1 failed (the build, the API, a 401/403 token), 2 refused (a live remote would
break, or the build is too old to be checked): the live folder is unchanged.`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: false,
    options: {
      dist: { type: 'string' },
      force: { type: 'boolean', default: false },
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length > 0) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const ctx = createContext({ to: values.to });
  const result = await shipShell(
    {
      root: ctx.root,
      dist: values.dist ? typedPath(values.dist) : undefined,
      liveDir: shellDistFrom(ctx.root),
      force: values.force,
      // Progress on stderr: stdout is what was shipped.
      log: (line) => console.error(line),
    },
    ctx.client,
  );
  console.log(formatShipped(result));
  return 0;
}

await runMain(main);
