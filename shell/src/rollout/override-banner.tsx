import type { OverrideState } from '@app/rollout';
import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { onOverrideFailed, overrideFailed } from './override-status';
import { EDGE_PATHS } from './page-plan';

const bar = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: ${t.space(3)};
  padding: ${t.space(2)} ${t.space(4)};
  font-size: 0.9rem;
  background: ${t.color.surfaceAlt};
  border-bottom: 2px dashed ${t.color.primary};
`;

/** How long the banner waits for the dev server's manifest before it says the live version is shown. */
const PROBE_MS = 3000;

/**
 * The dev server is asked for its manifest once (the page may be on a route of another remote, where no load
 * would tell): unreachable, or the overridden remote failed to load from it, and the banner says the live
 * version is shown instead (the shell's loader has fallen back to it, remotes.ts).
 */
function useDevServerDown(entry: string): boolean {
  const failed = useSyncExternalStore(onOverrideFailed, overrideFailed);
  const [unreachable, setUnreachable] = useState(false);
  useEffect(() => {
    let live = true;
    fetch(entry, { cache: 'no-store', signal: AbortSignal.timeout(PROBE_MS) })
      .then((response) => {
        if (live && !response.ok) setUnreachable(true);
      })
      .catch(() => {
        if (live) setUnreachable(true);
      });
    return () => {
      live = false;
    };
  }, [entry]);
  return failed || unreachable;
}

async function exitOverride(): Promise<void> {
  try {
    await fetch(EDGE_PATHS.exitOverride, { method: 'POST', signal: AbortSignal.timeout(5000) });
  } catch {
    // the reload that follows still has the override; the banner stays, and Exit can be pressed again
  }
  // The dev server's build is loaded into this page; a reload is the one clean way back to the live one.
  window.location.reload();
}

function Active({ grant }: { grant: Extract<OverrideState, { status: 'active' }>['grant'] }) {
  const down = useDevServerDown(grant.entry);
  return (
    <div role="status" aria-label="Dev override" css={bar}>
      <span>
        {down
          ? `Dev server ${grant.origin} is not reachable: showing the live ${grant.remote}`
          : `Developing ${grant.remote} from ${grant.origin}`}
      </span>
      <Button size="sm" variant="secondary" onClick={() => void exitOverride()}>
        Exit override
      </Button>
    </div>
  );
}

/**
 * While a dev override is active, every page says so with the remote and the dev server's origin (the
 * preview banner's pattern: nobody mistakes their dev build for the live site), with a way out. A refused
 * link says why once.
 */
export default function OverrideBanner({ state }: { state: OverrideState }) {
  const [dismissed, setDismissed] = useState(false);
  if (state.status === 'none' || dismissed) return null;
  if (state.status === 'refused') {
    return (
      <div role="alert" css={bar}>
        <span>Override link refused: {state.message}</span>
        <Button size="sm" variant="secondary" onClick={() => setDismissed(true)}>
          Dismiss
        </Button>
      </div>
    );
  }
  return <Active grant={state.grant} />;
}
