import { MESSAGES } from '@app/contracts';
import type { RemoteAppProps, RemoteName, ShellCalls } from '@app/federation';
import { Alert, Button, Container, Skeleton } from '@app/ui';
import { css } from '@emotion/react';
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { reportHealth } from '../rollout/health';
import { RemoteErrorBoundary } from './remote-error-boundary';
import { currentChoice, fallBackToStable, loadRemoteApp, RemoteLoadError } from './remotes';

/** A fixed-size placeholder, so the frame does not jump when the remote arrives. */
export function RegionSkeleton() {
  return (
    <Container aria-busy="true" aria-label={MESSAGES.app.loading}>
      <div css={css`display: grid; gap: 16px; min-height: 60vh;`}>
        <Skeleton height="40px" width="45%" />
        <Skeleton height="20px" width="80%" />
        <Skeleton height="20px" width="70%" />
        <Skeleton height="220px" />
      </div>
    </Container>
  );
}

export function RegionError({ onRetry, name }: { onRetry: () => void; name: string }) {
  return (
    <Container data-remote-error={name}>
      <Alert tone="error">
        <strong>{MESSAGES.app.remoteFailedTitle}</strong>
        <p css={css`margin: 4px 0 12px;`}>{MESSAGES.app.remoteFailedText}</p>
        <Button onClick={onRetry}>{MESSAGES.app.retry}</Button>
      </Alert>
    </Container>
  );
}

interface RemoteRegionProps<N extends RemoteName> {
  name: N;
  /**
   * What the shell passes to the remote's './App': only what ShellCalls declares for it, which is what its
   * build contract says the shell calls (issue 45) and what remote-contracts.ts checks the remote accepts.
   */
  props: ShellCalls[N];
  fallback?: ReactNode;
  renderError?: (retry: () => void) => ReactNode;
  /** Called once the remote's own content is on screen (its Suspense has resolved). */
  onRendered?: () => void;
}

/** Commits together with the remote (same Suspense boundary), so its effect runs when the remote is shown. */
function RenderedSignal({ onRendered }: { onRendered?: () => void }) {
  useEffect(() => {
    onRendered?.();
  }, [onRendered]);
  return null;
}

/** A render error (not a load error) in a canary or preview: that build is broken for this visitor. */
const fallsBackOnRender = (name: RemoteName, error: Error) =>
  !(error instanceof RemoteLoadError) && currentChoice(name).fallback !== null;

/**
 * One remote's region: its own Suspense (skeleton) and error boundary (message + Retry). Retry creates a
 * new lazy component that loads the remote afresh, so the rest of the page is never reloaded. A canary
 * that fails to render is reported and replaced by the stable version, with no message at all.
 */
export function RemoteRegion<N extends RemoteName>({
  name,
  props,
  fallback,
  renderError,
  onRendered,
}: RemoteRegionProps<N>) {
  const [attempt, setAttempt] = useState(0);
  const Remote = useMemo(
    () =>
      lazy(async () => {
        const module = await loadRemoteApp<ShellCalls[N]>(name, attempt > 0);
        return { default: module.default };
      }) as unknown as ComponentType<RemoteAppProps>,
    [name, attempt],
  );
  const retry = () => setAttempt((n) => n + 1);
  const onError = (error: Error) => {
    if (error instanceof RemoteLoadError) return; // reported as a load failure already
    reportHealth(currentChoice(name), 'render-error');
    if (fallBackToStable(name)) retry();
  };
  return (
    <RemoteErrorBoundary
      key={attempt}
      onRetry={retry}
      onError={onError}
      fallback={(error, reset) =>
        fallsBackOnRender(name, error) ? (
          (fallback ?? <RegionSkeleton />)
        ) : renderError ? (
          renderError(reset)
        ) : (
          <RegionError name={name} onRetry={reset} />
        )
      }
    >
      <Suspense fallback={fallback ?? <RegionSkeleton />}>
        {/* Generic props do not survive lazy(); the remote's own contract type is ShellCalls[N]. */}
        <Remote {...(props as RemoteAppProps)} />
        <RenderedSignal onRendered={onRendered} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
