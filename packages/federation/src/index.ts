/**
 * The contract between the shell and its remotes. Each remote exposes one module, './App', whose default
 * export is a component taking these props. The shell only ever loads `${remote}/App`.
 */
import type { ComponentType } from 'react';

// In a module of their own: the route table (re-exported below) names remotes too, and imports them from there.
export { REMOTE_NAMES, type RemoteName } from './remote-names';

export const EXPOSED_MODULE = './App';

/**
 * Props every routed remote receives: none. Remotes render their own <Routes> with absolute paths and read
 * the session and the theme from the shared packages, so the shell has nothing to hand them.
 */
export type RemoteAppProps = Record<never, never>;

/**
 * mf-survey's './App' with these props is the modal the shell opens on request (see @app/shell-actions);
 * without them, like every routed remote, it renders its routes (/admin/leads).
 */
export interface SurveyAppProps {
  onClose: () => void;
}

export type RemoteEntryModule<P = RemoteAppProps> = { default: ComponentType<P> };

export * from './route-table';
