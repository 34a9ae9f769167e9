import { isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { useNavigate } from '@app/router';
import { useCallback, useRef } from 'react';
import { loginState, setPendingNotice } from '../../../lib/login-state';

/**
 * SPEC §8 Profile: a 401 shows 'Session expired or unauthorized. Please log in again.' and goes to /login.
 * The text travels as the Login page's notice, so it is still on screen after the shell has reacted to the
 * cleared token. `leaving` tells the screen a navigation away is already under way.
 */
export function useSessionExpiry() {
  const navigate = useNavigate();
  const leaving = useRef(false);
  const handleUnauthorized = useCallback(
    (error: unknown): boolean => {
      if (!isStatus(error, 401)) return false;
      leaving.current = true;
      setPendingNotice(MESSAGES.profile.sessionExpired);
      navigate('/login', { replace: true, state: loginState(MESSAGES.profile.sessionExpired, '/profile') });
      return true;
    },
    [navigate],
  );
  return { handleUnauthorized, leaving };
}
