import { api } from '@app/api-client';
import { API_PATHS, MESSAGES, TwoFactorStatusSchema } from '@app/contracts';
import { Link } from '@app/router';
import { useSession } from '@app/session';
import { Alert, Container, inlineLinkStyles } from '@app/ui';
import { type ReactNode, useEffect, useState } from 'react';
import { RegionSkeleton } from '../federation/remote-region';
import { TWO_FACTOR_TEXTS } from './two-factor-texts';

/** The session token whose administrator has a second factor: asked once per session, not per screen. */
let settledFor: string | null = null;

/**
 * Issue 46: an administrator without a second factor gets 403 from every admin API. Rather than each admin
 * screen failing in its own words, every /admin/* page says so here, with the way to the profile where it is
 * set up. Anyone else (a member, a guest) sees the screen as before: its own check answers them.
 */
export function AdminFactorGate({ children }: { children: ReactNode }) {
  const { token } = useSession();
  const settled = token !== null && token === settledFor;
  const [missing, setMissing] = useState<boolean | null>(settled ? false : null);
  useEffect(() => {
    if (token === null || token === settledFor) return;
    const controller = new AbortController();
    api.get(API_PATHS.twoFactor, TwoFactorStatusSchema, { signal: controller.signal }).then(
      (status) => {
        const without = status.required && !status.enabled;
        // Asked again on the next admin page while it is missing: it may just have been set up.
        if (!without) settledFor = token;
        setMissing(without);
      },
      // The screen itself will say what is wrong (offline, session ended).
      () => !controller.signal.aborted && setMissing(false),
    );
    return () => controller.abort();
  }, [token]);

  if (settled || missing === false) return <>{children}</>;
  if (missing === null) return <RegionSkeleton />;
  return (
    <Container>
      <Alert tone="error">
        <p>{MESSAGES.twoFactor.setupRequired}</p>
        <Link to="/profile" css={inlineLinkStyles}>
          {TWO_FACTOR_TEXTS.setUpLink}
        </Link>
      </Alert>
    </Container>
  );
}

/** For tests: forget which session was settled. */
export const forgetAdminFactor = () => {
  settledFor = null;
};
