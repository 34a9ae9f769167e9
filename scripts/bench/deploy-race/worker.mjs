// One racer of `pnpm bench:deploy-race` (scripts/bench-deploy-race.mjs): a process of its own that makes
// COUNT pointer changes (`pnpm rollout set mf-research --percent N`) through ONE API instance, with the CLI's
// own code (@app/release: read the revision, send the change with If-Match). A change refused with 412 is
// read again and sent again, as a person would after the CLI's message, until COUNT changes have landed.
// Prints one JSON line: what landed (with the revision each produced), how many 412s, any other failure.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const { createContext, setPercent, DeployApiError } = await import(
  pathToFileURL(path.join(ROOT, 'tooling', 'release', 'src', 'index.ts')).href
);

const [url, count, label] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const ctx = createContext({ to: url, env: 'production', log: () => {} });
const landed = [];
let conflicts = 0;
const failures = [];
const started = performance.now();
while (landed.length < count && failures.length < 5) {
  const percent = Math.floor(Math.random() * 100) + 1;
  try {
    const result = await setPercent(ctx, { remote: 'mf-research', percent });
    landed.push({ revision: result.revision, percent });
  } catch (error) {
    if (error instanceof DeployApiError && error.status === 412) conflicts += 1;
    else failures.push(String(error?.message ?? error).split('\n')[0]);
  }
}
const ms = performance.now() - started;
console.log(JSON.stringify({ label, url, landed, conflicts, failures, ms }));
