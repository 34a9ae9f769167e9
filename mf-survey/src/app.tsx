import type { SurveyAppProps } from '@app/federation';
import { registerReactCopy } from '@app/session';
import * as React from 'react';
import { SurveyModal } from './features/survey/components/survey-modal';

registerReactCopy(React);

/** The survey modal the shell opens on request; the shell unmounts it after onClose. */
export default function App({ onClose }: SurveyAppProps) {
  return <SurveyModal onClose={onClose} />;
}
