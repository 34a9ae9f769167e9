// `pnpm bench:compat`: what issue 45's compatibility-from-code costs (docs/performance.md). Prints, per app,
// the time to read what its code is (the build contract: TypeScript's compiler API over the shared
// packages and the app's exposed module) and the contract's size; then the time of one gate check of each
// remote's contract against the shell's (the pure rules the deploy API runs per live version).
// Runs under tsx (imports @app/rollout's TypeScript): node --import tsx scripts/bench-compat.mjs [--runs N]
import { parseArgs } from 'node:util';
import { buildContract } from '@app/api-surface';
import { compatConflicts } from '@app/rollout';
import { APPS } from '@app/webpack-config/apps';
import { SHARED_MODULES } from '@app/webpack-config/shared';
import { ROOT } from './apps.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const sharedPackages = Object.keys(SHARED_MODULES).filter(
  (m) => m.startsWith('@app/') && SHARED_MODULES[m].singleton,
);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const contracts = {};
console.log(`build contract per app (median of ${RUNS}):`);
for (const app of APPS) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    contracts[app.name] = buildContract({
      container: app.container,
      dirname: `${ROOT}/${app.name}`,
      exposes: app.exposes ?? {},
      sharedPackages,
      isShell: !app.exposes,
    });
    times.push(performance.now() - start);
  }
  const bytes = Buffer.byteLength(JSON.stringify(contracts[app.name], null, 1));
  const exports = Object.values(contracts[app.name].provides).reduce(
    (n, p) => n + Object.keys(p.exports).length,
    0,
  );
  const required = Object.values(contracts[app.name].requires).reduce((n, r) => n + Object.keys(r).length, 0);
  console.log(
    `  ${app.name.padEnd(16)} ${median(times).toFixed(0).padStart(5)} ms  ${(bytes / 1024).toFixed(1).padStart(5)} KiB  provides ${exports} exports, requires ${required}`,
  );
}

const side = (who, contract) => ({
  who,
  manifest: {
    shared: Object.entries(SHARED_MODULES).map(([name, c]) => ({
      name,
      version: c.version,
      singleton: c.singleton,
    })),
  },
  contract,
});
const shell = side('the live shell', contracts.shell);
const ITERATIONS = 2000;
console.log(`gate check of a remote against the shell (${ITERATIONS} checks each):`);
for (const app of APPS.filter((a) => a.exposes)) {
  const remote = side(app.name, contracts[app.name]);
  const conflicts = compatConflicts(remote, shell);
  const start = performance.now();
  for (let i = 0; i < ITERATIONS; i++) compatConflicts(remote, shell);
  const perCheck = ((performance.now() - start) * 1000) / ITERATIONS;
  console.log(
    `  ${app.name.padEnd(16)} ${perCheck.toFixed(1).padStart(6)} µs  ${conflicts.length} conflicts`,
  );
}
