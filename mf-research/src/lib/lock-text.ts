import type { Visibility } from '@app/contracts';

/** What a locked card or post page tells the user: which tier opens it. */
const LOCK_TEXT: Record<Visibility, string> = {
  public: 'This research is public.',
  members_only: 'This research is for members. Log in to read it.',
  'paid-tier-1': 'This research requires a Premium subscription.',
  'paid-tier-2': 'This research requires a Premium Pro subscription.',
  private: 'This research is for administrators only.',
};

export function lockMessage(visibility: Visibility): string {
  return LOCK_TEXT[visibility];
}

/** Where a post the caller may not open is explained without its content (the API's 403). */
export const LOCKED_GENERIC = 'This research requires a higher subscription tier.';
