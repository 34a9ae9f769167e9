import { errorMessage, isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';

/**
 * SPEC §8 for Research: a 401 is shown by the page as 'Session expired. Please log in again.' (the session
 * marks itself expired), so here it is no list error; any other failure is the server's error or
 * 'Error loading research content', shown where the list would be.
 */
export function useLoadError(error: unknown): string | null {
  if (!error || isStatus(error, 401)) return null;
  return errorMessage(error, MESSAGES.research.loadFailed);
}
