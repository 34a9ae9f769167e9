import type { HealthRefusal } from '@app/contracts';
import { PREVIEW_MESSAGES } from '@app/rollout/node';

/**
 * What the rollout routes answer in `error`, in one place: the shell shows these texts as they are. The
 * preview link's texts are the edge's too (@app/rollout).
 */
export const ROLLOUT_MESSAGES = {
  tooManyHealthReports: 'Too many health reports. Try again later.',
  /** Why a health report was refused (docs/decisions/0027-health-gate.md); none of them is counted. */
  refused: {
    malformed: 'This health report is not well-formed.',
    forged: 'This health report’s ticket is not one we issued.',
    expired: 'This health report’s ticket has expired.',
    replayed: 'This page view has already reported that.',
    mismatched: 'This page view was not served that version.',
    'server-only': 'Server render failures come from the page view’s ticket, not from the browser.',
  } satisfies Record<HealthRefusal, string>,
  previewExpired: PREVIEW_MESSAGES.expired,
  previewInvalid: PREVIEW_MESSAGES.invalid,
  previewRevoked: PREVIEW_MESSAGES.revoked,
} as const;
