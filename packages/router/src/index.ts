/**
 * The router every app uses: the part of react-router we need, shared as one singleton
 * (docs/decisions/0003-shared-singletons.md). Shared modules are not tree-shaken, so sharing react-router
 * itself shipped all of it (~61 KiB gzip: data routers, SSR, forms) to every visitor; re-exported from here,
 * webpack keeps only what these names use. An app that needs more adds the name here.
 */

export type { Location, NavigateFunction } from 'react-router';
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  matchPath,
  Navigate,
  NavLink,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
