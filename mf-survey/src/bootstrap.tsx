// Runs only when the team serves this remote alone; the shell loads ./App through Module Federation.
import { renderStandalone } from '@app/dev-frame';
import type { RemoteAppProps } from '@app/federation';
import { Button, Container } from '@app/ui';
import { useState } from 'react';
import App from './app';

function SurveyPlayground(_props: RemoteAppProps) {
  const [open, setOpen] = useState(true);
  return (
    <Container>
      <Button onClick={() => setOpen(true)}>Open the survey</Button>
      {open && <App onClose={() => setOpen(false)} />}
    </Container>
  );
}

renderStandalone(SurveyPlayground, { title: 'Survey', links: ['/'] });
