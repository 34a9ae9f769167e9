import type { Visibility } from '@app/contracts';

/** What a locked card or post page tells the user: which tier opens it. */
const LOCK_TEXT: Record<Visibility, string> = {
  public: 'This research is public.',
  members_only: 'This research is for members. Log in or sign up free to read it.',
  'paid-tier-1': 'This research requires a Premium subscription.',
  'paid-tier-2': 'This research requires a Premium Pro subscription.',
  private: 'This research is for administrators only.',
};

export function lockMessage(visibility: Visibility): string {
  return LOCK_TEXT[visibility];
}

/** Where a post the caller may not open is explained without a teaser (an older API's 403). */
export const LOCKED_GENERIC = 'This research requires a higher subscription tier.';

/** The way up from a teaser: guests log in or sign up, members upgrade on the Plans page. */
export const LOCK_ACTIONS = {
  login: 'Log In',
  signUp: 'Sign Up',
  upgrade: 'Upgrade',
  plansPath: '/plans',
} as const;
