import type { SurveyAppProps } from '@app/federation';
import { registerReactCopy } from '@app/session';
import { Modal } from '@app/ui';
import * as React from 'react';

registerReactCopy(React);

/** The survey modal the shell opens on request. */
export default function App({ onClose }: SurveyAppProps) {
  return (
    <Modal title="Market Assessment" onClose={onClose}>
      <p>Market Assessment Survey</p>
    </Modal>
  );
}
