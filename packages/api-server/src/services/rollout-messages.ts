import { PREVIEW_MESSAGES } from '@app/rollout/node';

/**
 * What the rollout routes answer in `error`, in one place: the shell shows these texts as they are. The
 * preview link's texts are the edge's too (@app/rollout).
 */
export const ROLLOUT_MESSAGES = {
  unknownRelease: 'Unknown release',
  tooManyHealthReports: 'Too many health reports. Try again later.',
  previewExpired: PREVIEW_MESSAGES.expired,
  previewInvalid: PREVIEW_MESSAGES.invalid,
  previewNotReleased: PREVIEW_MESSAGES.notReleased,
  previewDisabled: PREVIEW_MESSAGES.disabled,
} as const;
