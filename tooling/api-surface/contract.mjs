// The build contract (packages/rollout/src/build-contract.ts): what one app's build is, from its sources.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { importsOf, sourceFiles, WHOLE_PACKAGE } from './imports.mjs';
import { callsOf, exposedModule } from './interfaces.mjs';
import { createProgram, packageEntry } from './program.mjs';
import { surfaceKey, surfaceOf } from './surface.mjs';

const require = createRequire(import.meta.url);

/** The Module Federation version builds are made with (remotes run on the shell's runtime). */
export function federationRuntimeVersion() {
  // Its package.json is not in its exports: find it above the resolved entry.
  let dir = path.dirname(
    require.resolve('@module-federation/enhanced', {
      paths: [path.join(import.meta.dirname, '..', 'webpack')],
    }),
  );
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (manifest.name === '@module-federation/enhanced') return manifest.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@module-federation/enhanced is not installed');
    dir = parent;
  }
}

/** Where the shell's calls are declared: packages/federation's ShellCalls. */
export const SHELL_CALLS = { package: '@app/federation', interface: 'ShellCalls' };

/**
 * @param {object} o
 * @param {string} o.container      the Module Federation container name
 * @param {string} o.dirname        the app's folder (its sources in src/)
 * @param {Record<string, string>} o.exposes  './App' -> file, relative to dirname
 * @param {string[]} o.sharedPackages the @app packages this build shares as singletons (private copies excluded)
 * @param {boolean} o.isShell       the shell: it calls every remote's './App' (ShellCalls)
 */
export function buildContract({ container, dirname, exposes, sharedPackages, isShell }) {
  const entries = Object.fromEntries(sharedPackages.map((name) => [name, packageEntry(name)]));
  const exposedFiles = Object.fromEntries(
    Object.entries(exposes).map(([key, file]) => [key, path.resolve(dirname, file)]),
  );
  const callsFile = isShell ? packageEntry(SHELL_CALLS.package) : null;
  const program = createProgram([
    ...Object.values(entries),
    ...Object.values(exposedFiles),
    ...(callsFile ? [callsFile] : []),
  ]);

  const provides = {};
  for (const [name, entry] of Object.entries(entries)) {
    const exports = surfaceOf(program, entry);
    provides[name] = { key: surfaceKey(exports), exports };
  }
  const requires = {};
  for (const [name, used] of importsOf(sourceFiles(path.join(dirname, 'src')), sharedPackages)) {
    const surface = provides[name].exports;
    const names = used.has(WHOLE_PACKAGE) ? Object.keys(surface) : [...used].sort();
    // A name that is no value export is a type imported without `type` (erased), or a typo tsc reports.
    requires[name] = Object.fromEntries(names.filter((n) => n in surface).map((n) => [n, surface[n]]));
  }
  return {
    schema: 1,
    container,
    federationRuntime: federationRuntimeVersion(),
    provides,
    requires,
    exposes: Object.fromEntries(
      Object.entries(exposedFiles).map(([key, file]) => [key, exposedModule(program, file)]),
    ),
    calls: callsFile ? callsOf(program, callsFile, SHELL_CALLS.interface) : {},
  };
}

function shapeText(shape) {
  const props = Object.entries(shape).map(
    ([name, prop]) =>
      `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}${prop.optional ? '?' : ''}: ${prop.type}`,
  );
  return props.length ? `{ ${props.join('; ')} }` : 'Record<never, never>';
}

/**
 * The published declaration of an exposed module (issue 45: "each remote's exposes publish their types"):
 * what its default export accepts, which is all the shell may rely on. Written into the release
 * (`@mf-types/App.d.ts`) and into the shell's `@mf-types/` for its type check.
 */
export function declarationOf(container, expose, exposed) {
  const name = expose.replace(/^\.\//, '');
  return [
    `// ${container}/${name}: generated from its sources by @app/api-surface; do not edit.`,
    `declare const ${name}: (props: ${exposed.props.map(shapeText).join(' | ')}) => unknown;`,
    `export default ${name};`,
    '',
  ].join('\n');
}
