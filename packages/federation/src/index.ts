/**
 * The contract between the shell and its remotes. Each remote exposes one module, './App', whose default
 * export is a component taking these props. The shell only ever loads `${remote}/App`.
 */
import type { ComponentType } from 'react';

export const REMOTE_NAMES = ['mf_account', 'mf_research', 'mf_survey', 'mf_public_pages'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

export const EXPOSED_MODULE = './App';

/** Props every routed remote receives. Remotes render their own <Routes> with absolute paths. */
export interface RemoteAppProps {
  /** Set when the remote is rendered by the shell (false when a team runs the remote alone). */
  embedded: boolean;
}

/** mf-survey's './App' is a modal the shell opens on request (see @app/shell-actions). */
export interface SurveyAppProps extends RemoteAppProps {
  onClose: () => void;
}

export type RemoteEntryModule<P = RemoteAppProps> = { default: ComponentType<P> };
