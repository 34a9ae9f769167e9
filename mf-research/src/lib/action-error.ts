import { errorMessage, isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';

/**
 * SPEC §8 Research, for an action that failed (like, comment, publish, save): a 401 has ended the session,
 * so the message beside the button the visitor used says so (the page shows SessionExpiredNotice as well);
 * any other failure is the server's error or the action's own fallback.
 */
export function actionError(error: unknown, fallback: string): string {
  return isStatus(error, 401) ? MESSAGES.research.sessionExpired : errorMessage(error, fallback);
}
