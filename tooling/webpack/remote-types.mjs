#!/usr/bin/env node
// `remote-types [--out <folder>]`: each remote's published declaration of './App' (issue 45), generated from
// its sources into the shell's @mf-types/ (git-ignored), which the shell's type check reads: a remote that
// stops accepting what the shell passes (packages/federation's ShellCalls) fails `pnpm typecheck` in the
// shell (shell/src/federation/remote-contracts.ts). The same declarations ship in every release
// (@mf-types/App.d.ts beside mf-compat.json), and the deploy API refuses a release whose './App' no longer
// fits what the live shell calls.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createProgram, declarationOf, exposedModule } from '@app/api-surface';
import { APPS } from './apps.mjs';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const root = path.resolve(import.meta.dirname, '..', '..');
const out = path.resolve(values.out ?? path.join(root, 'shell', '@mf-types'));

const remotes = APPS.filter((app) => app.exposes);
const files = remotes.flatMap((app) =>
  Object.values(app.exposes).map((file) => path.join(root, app.name, file)),
);
const program = createProgram(files);
for (const app of remotes) {
  for (const [expose, file] of Object.entries(app.exposes)) {
    const exposed = exposedModule(program, path.join(root, app.name, file));
    const target = path.join(out, app.container, `${expose.replace(/^\.\//, '')}.d.ts`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, declarationOf(app.container, expose, exposed));
  }
}
console.log(
  `remote-types: ${remotes.length} remotes' declarations in ${path.relative(process.cwd(), out) || '.'}`,
);
