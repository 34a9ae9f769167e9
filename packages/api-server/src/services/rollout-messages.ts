/**
 * What the rollout routes answer in `error`, in one place: the shell shows these texts as they are.
 */
export const ROLLOUT_MESSAGES = {
  unknownRelease: 'Unknown release',
  tooManyHealthReports: 'Too many health reports. Try again later.',
  previewExpired: 'This preview link has expired.',
  previewInvalid: 'This preview link is not valid.',
  previewNotReleased: 'This preview link names a version that is not released.',
  previewDisabled: 'Preview links are not enabled on this server.',
} as const;
