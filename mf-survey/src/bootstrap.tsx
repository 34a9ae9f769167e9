// Runs only when the team serves this remote alone; the shell loads ./App through Module Federation.
import { renderStandalone } from '@app/dev-frame';
import type { RemoteAppProps } from '@app/federation';
import { useLocation } from '@app/router';
import { Button, Container } from '@app/ui';
import { Suspense, useState } from 'react';
import App from './app';

/** `/`: the survey as the shell opens it; any other path: the remote's routes (/admin/leads). */
function SurveyPlayground(_props: RemoteAppProps) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(true);
  // The shell's region holds a Suspense around a routed remote; alone, this frame does.
  if (pathname !== '/')
    return (
      <Suspense fallback={null}>
        <App />
      </Suspense>
    );
  return (
    <Container>
      <Button onClick={() => setOpen(true)}>Open the survey</Button>
      {open && <App onClose={() => setOpen(false)} />}
    </Container>
  );
}

renderStandalone(SurveyPlayground, { title: 'Survey', links: ['/', '/admin/leads'] });
