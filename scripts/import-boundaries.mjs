// The import boundaries `pnpm lint` enforces (ARCHITECTURE.md), written into biome.json as one
// noRestrictedImports override per folder: an app never imports another app, a package never imports an
// app, and a feature uses another feature of its app only through that feature's index.ts.
// `node scripts/import-boundaries.mjs` writes them; `--check` (part of `pnpm lint`) fails when biome.json
// does not hold exactly what the current apps and feature folders call for (a new feature, a new app).
import fs from 'node:fs';
import path from 'node:path';
import { APPS, ROOT } from './apps.mjs';

const APP_MESSAGE =
  'An app never imports another app (ARCHITECTURE.md): what two apps need belongs in a package under packages/, and a remote reaches the shell through @app/shell-actions or the session.';
const PACKAGE_MESSAGE =
  'A package (or build tooling) never imports an app (ARCHITECTURE.md): apps depend on packages, never the other way round.';
const FEATURE_MESSAGE =
  "A feature uses another feature only through that feature's index.ts (its public surface), never its internals.";

const appNames = APPS.map((app) => app.name);
/** An app's name as a package, a path inside it, and any relative path through its folder. */
const appGroup = (names) => names.flatMap((name) => [name, `${name}/**`, `**/${name}/**`]);
const override = (includes, patterns) => ({
  includes,
  linter: { rules: { style: { noRestrictedImports: { level: 'error', options: { patterns } } } } },
});

export function boundaryOverrides() {
  const overrides = appNames.map((name) =>
    override(
      [`${name}/**`],
      [{ group: appGroup(appNames.filter((other) => other !== name)), message: APP_MESSAGE }],
    ),
  );
  overrides.push(
    override(
      ['packages/**', 'services/**', 'tooling/**', 'testing/**'],
      [{ group: appGroup(appNames), message: PACKAGE_MESSAGE }],
    ),
  );
  // A feature's override replaces its app's for the same rule, so it repeats the app rule.
  for (const name of appNames) {
    const dir = path.join(ROOT, name, 'src', 'features');
    if (!fs.existsSync(dir)) continue;
    const features = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    for (const feature of features) {
      const others = features.filter((other) => other !== feature);
      if (others.length === 0) continue;
      overrides.push(
        override(
          [`${name}/src/features/${feature}/**`],
          [
            { group: appGroup(appNames.filter((other) => other !== name)), message: APP_MESSAGE },
            { group: others.map((other) => `**/${other}/**`), message: FEATURE_MESSAGE },
          ],
        ),
      );
    }
  }
  return overrides;
}

const file = path.join(ROOT, 'biome.json');
const config = JSON.parse(fs.readFileSync(file, 'utf8'));
const wanted = boundaryOverrides();
if (process.argv.includes('--check')) {
  if (JSON.stringify(config.overrides ?? []) !== JSON.stringify(wanted)) {
    console.error(
      'biome.json: the import boundaries are out of date; run `node scripts/import-boundaries.mjs`',
    );
    process.exit(1);
  }
} else {
  config.overrides = wanted;
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  console.log(`biome.json: ${wanted.length} import-boundary overrides`);
}
