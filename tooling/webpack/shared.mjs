// The one list of shared modules (docs/decisions/0003-shared-singletons.md): singletons, plus @app/contracts
// shared only between identical builds (below).
// Every container (shell and remotes) shares exactly these, each pinned to the workspace version, so the
// browser loads one React, one router, one emotion and one copy of each of our context packages.
// The router is shared as @app/router (the names we use, re-exported from react-router) rather than as
// react-router-dom: shared modules are not tree-shaken, and react-router whole is ~61 KiB gzip. Apps never
// import react-router or react-router-dom themselves. @app/router carries react-router's version, so the
// rollout compatibility gate compares router majors.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const versionOf = (name) => require(`${name}/package.json`).version;

const REACT = versionOf('react');
const REACT_DOM = versionOf('react-dom');
const ROUTER = versionOf('react-router');
const EMOTION = versionOf('@emotion/react');
/** Where a shared library lives: packages/<name without @app/> (the only layer an app's bundle draws on). */
const packageDir = (name) =>
  path.join(import.meta.dirname, '..', '..', 'packages', name.replace('@app/', ''));
/** Our own packages' versions from their package.json (`workspace:*` is not semver, so it is read here). */
const ownVersion = (name) =>
  JSON.parse(fs.readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')).version;

const singleton = (version) => ({ singleton: true, requiredVersion: version, version, strictVersion: false });

/** A digest of workspace packages' sources (tests excluded), as a semver prerelease: equal for equal code. */
function sourceVersion(names) {
  const hash = createHash('sha256');
  for (const name of names) {
    const src = path.join(packageDir(name), 'src');
    const files = fs
      .readdirSync(src, { recursive: true })
      .map(String)
      .filter((f) => /\.tsx?$/.test(f));
    for (const file of files.filter((f) => !/\.test\.tsx?$/.test(f)).sort()) {
      hash
        .update(`${name}/${file}\0`)
        .update(fs.readFileSync(path.join(src, file)))
        .update('\0');
    }
  }
  // The 's' keeps the identifier alphanumeric: ten hex digits can all be digits with a leading zero, which
  // semver (and MF's satisfy) rejects, and an invalid version matches nothing, not even itself.
  return `${ownVersion(names[0])}-s${hash.digest('hex').slice(0, 10)}`;
}

/**
 * Shared, but not a singleton: a container uses the copy already on the page only when it was built from
 * the very same sources (exact version, a digest of them); otherwise it loads its own. A remote deployed
 * with new messages or schemas therefore never runs against the shell's older ones, and when both are
 * built from one commit the page loads the contracts once instead of once per container (~6 KiB gzip).
 */
const identical = (version) => ({ singleton: false, requiredVersion: version, version, strictVersion: true });
const CONTRACTS = sourceVersion(['@app/contracts', '@app/rollout']);

export const SHARED_MODULES = {
  react: singleton(REACT),
  'react/jsx-runtime': singleton(REACT),
  // Development builds compile JSX to the dev runtimes; unshared, a remote would carry its own emotion
  // ThemeContext and see no theme (pnpm dev only; production never imports these).
  'react/jsx-dev-runtime': singleton(REACT),
  'react-dom': singleton(REACT_DOM),
  'react-dom/client': singleton(REACT_DOM),
  '@app/router': singleton(ROUTER),
  '@emotion/react': singleton(EMOTION),
  '@emotion/react/jsx-runtime': singleton(EMOTION),
  '@emotion/react/jsx-dev-runtime': singleton(EMOTION),
  '@app/session': singleton(ownVersion('@app/session')),
  '@app/ui': singleton(ownVersion('@app/ui')),
  '@app/api-client': singleton(ownVersion('@app/api-client')),
  '@app/shell-actions': singleton(ownVersion('@app/shell-actions')),
  '@app/contracts': identical(CONTRACTS),
};

/**
 * The shell's view of the same list. The shell provides every singleton and is the first container on the
 * page, so the copy it consumes is always its own: checking its own version against itself is work without
 * a possible outcome (MF's semver check compiles its patterns on each call, ~15 ms of a slow phone's start).
 * Remotes keep their required versions; the contracts keep theirs (shared only between identical builds).
 */
export const HOST_SHARED_MODULES = Object.fromEntries(
  Object.entries(SHARED_MODULES).map(([name, config]) => [
    name,
    config.singleton ? { ...config, requiredVersion: false } : config,
  ]),
);
