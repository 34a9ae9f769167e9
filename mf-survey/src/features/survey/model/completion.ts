import { SURVEY_COMPLETED_KEY } from '@app/contracts';

/**
 * Remembers in this browser that the assessment was completed (Home's premium cards then say the insights
 * are on their way; the shell shows its thanks). The browser fires 'storage' only in other tabs, so the same
 * event is dispatched here for this tab's listeners: the key is the whole contract, no app imports another.
 */
export function markSurveyCompleted(now: Date = new Date()): void {
  const value = now.toISOString();
  try {
    window.localStorage.setItem(SURVEY_COMPLETED_KEY, value);
  } catch {
    // Storage can be full or blocked: this tab still hears the event below, only the memory is lost.
  }
  window.dispatchEvent(
    new StorageEvent('storage', { key: SURVEY_COMPLETED_KEY, newValue: value, url: window.location.href }),
  );
}
