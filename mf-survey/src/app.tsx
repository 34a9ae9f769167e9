import type { SurveyAppProps } from '@app/federation';
import { SurveyModal } from './features/survey/components/survey-modal';

/** The survey modal the shell opens on request; the shell unmounts it after onClose. */
export default function App({ onClose }: SurveyAppProps) {
  return <SurveyModal onClose={onClose} />;
}
