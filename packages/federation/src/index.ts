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

/**
 * What the shell passes to each remote's './App' (issue 45): one entry per container, a union where the
 * shell renders it in more than one way. The shell's calls are typed by it (RemoteRegion), its build
 * contract's `calls` are read from it (tooling/api-surface), and shell/src/federation/remote-contracts.ts
 * checks that each remote's published declaration accepts it. A remote that stops accepting these fails
 * the shell's type check, and the deploy API refuses its release.
 */
export interface ShellCalls {
  mf_account: RemoteAppProps;
  mf_research: RemoteAppProps;
  mf_survey: RemoteAppProps | SurveyAppProps;
  mf_public_pages: RemoteAppProps;
}

export type RemoteEntryModule<P = RemoteAppProps> = { default: ComponentType<P> };

export * from './route-table';
