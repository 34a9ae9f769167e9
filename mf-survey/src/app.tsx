import type { RemoteAppProps, SurveyAppProps } from '@app/federation';
import { lazy } from 'react';
import { SurveyModal } from './features/survey/components/survey-modal';

// Loaded when an admin path is visited, never with the survey (the size budget counts what ./App bundles).
// No Suspense of its own: the shell's region around a routed remote shows its skeleton until this arrives.
const AdminRoutes = lazy(() => import('./admin-routes'));

/**
 * The remote's one exposed module, used two ways by the shell: with `onClose` it is the survey modal the
 * shell opens on request (@app/shell-actions); without props, as every routed remote, it renders its own
 * routes (the route table gives it /admin/leads).
 */
export default function App(props: SurveyAppProps | RemoteAppProps) {
  if ('onClose' in props) return <SurveyModal onClose={props.onClose} />;
  return <AdminRoutes />;
}
