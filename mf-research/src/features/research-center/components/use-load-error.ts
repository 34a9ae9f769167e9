import { errorMessage, isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { useEffect } from 'react';

/**
 * SPEC §8 for Research: a 401 (the api-client already cleared the token) tells the page to show
 * 'Session expired. Please log in again.' and fall back to the guest view; any other failure is the
 * server's error or 'Error loading research content', shown where the list would be.
 */
export function useLoadError(error: unknown, onSessionExpired: () => void): string | null {
  const expired = isStatus(error, 401);
  useEffect(() => {
    if (expired) onSessionExpired();
  }, [expired, onSessionExpired]);
  if (!error || expired) return null;
  return errorMessage(error, MESSAGES.research.loadFailed);
}
