// The one list of shared singletons (docs/decisions/0003-shared-singletons.md).
// Every container (shell and remotes) shares exactly these, each pinned to the workspace version, so the
// browser loads one React, one router, one emotion and one copy of each of our context packages.
// The router is shared as @app/router (the names we use, re-exported from react-router) rather than as
// react-router-dom: shared modules are not tree-shaken, and react-router whole is ~61 KiB gzip. Apps never
// import react-router or react-router-dom themselves. @app/router carries react-router's version, so the
// rollout compatibility gate compares router majors.
// `workspace:*` is not semver, so our own packages get an explicit version here.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const versionOf = (name) => require(`${name}/package.json`).version;

const REACT = versionOf('react');
const REACT_DOM = versionOf('react-dom');
const ROUTER = versionOf('react-router');
const EMOTION = versionOf('@emotion/react');
const OWN = '1.0.0';

const singleton = (version) => ({ singleton: true, requiredVersion: version, version, strictVersion: false });

export const SHARED_SINGLETONS = {
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
  '@app/session': singleton(OWN),
  '@app/ui': singleton(OWN),
  '@app/api-client': singleton(OWN),
  '@app/shell-actions': singleton(OWN),
};
