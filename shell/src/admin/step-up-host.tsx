import { setStepUpHandler } from '@app/api-client';
import { lazy, Suspense, useEffect, useState } from 'react';

// The dialog's form and its call load only when an administrator is first asked: visitors never do.
const StepUpDialog = lazy(() => import('./step-up-dialog'));

interface Asking {
  message: string;
  done: (verified: boolean) => void;
}

/**
 * Issue 46: a sensitive admin action refused with `stepUpRequired`, from any screen of any remote, opens
 * this one dialog (registered with the api-client); once a code is verified the api-client sends the
 * action again, so the screen sees only its answer. Cancelled, the screen shows the refusal.
 */
export function StepUpHost() {
  const [asking, setAsking] = useState<Asking | null>(null);
  useEffect(
    () =>
      setStepUpHandler(
        (message) =>
          new Promise<boolean>((resolve) => {
            setAsking({
              message,
              done: (verified) => {
                setAsking(null);
                resolve(verified);
              },
            });
          }),
      ),
    [],
  );
  if (!asking) return null;
  return (
    <Suspense fallback={null}>
      <StepUpDialog message={asking.message} onDone={asking.done} />
    </Suspense>
  );
}
