/**
 * Every user-facing text of SPEC.md, copied exactly, once. Screens import from here; tests assert against
 * these same constants so a wording change is made in one place.
 */
export const MESSAGES = {
  general: {
    fallback: 'An error occurred',
  },
  app: {
    companyName: 'Risk & Opportunity Intelligence',
    errorTitle: 'Something went wrong!',
    errorText:
      "We're sorry, but something unexpected happened. Please try refreshing the page. If the problem persists, please contact support.",
    refreshPage: 'Refresh Page',
    goBack: 'Go Back',
    notFoundTitle: 'Page not found',
    notFoundText: 'The page you are looking for does not exist or has moved.',
    startupTitle: 'The app could not start',
    startupApiMissing: 'The API base address is missing or invalid in the runtime configuration.',
    remoteFailedTitle: 'This section could not be loaded',
    remoteFailedText: 'The rest of the app still works. Try again in a moment.',
    retry: 'Retry',
    loading: 'Loading...',
  },
  login: {
    required: 'Email and password are required for login.',
    inactive: 'Your account is inactive. Please contact an administrator to activate your account.',
    locked: 'Account temporarily locked due to too many failed login attempts. Please try again later.',
    invalid: 'Invalid email or password. Please check your credentials and try again.',
    failed: 'Login failed',
  },
  /** Issue 34: what the API answers to Forgot and Reset password, and the screens show (SPEC §2 Login). */
  passwordReset: {
    sent: 'If an account exists for that email address, a link to reset your password is on its way. The link is valid for 30 minutes.',
    missingToken: 'This reset link is incomplete. Please request a new one.',
    invalidToken: 'This reset link is invalid, has expired or was already used. Please request a new one.',
    done: 'Your password has been changed. Please log in with your new password.',
    failed: 'The password could not be reset. Please try again.',
  },
  /**
   * Issue 46: the second factor (TOTP). What the API answers at login, before admin screens and sensitive
   * admin actions, and what the Login and Profile screens show (SPEC §2 Login, Profile).
   */
  twoFactor: {
    codeRequired: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
    codeWrong:
      'That code is not correct or was already used. Enter the current code from your authenticator app.',
    codeMissing: 'Please enter the code from your authenticator app.',
    setupRequired:
      'Administrators must use two-factor authentication. Set it up in your profile, then come back to administration.',
    stepUpRequired: 'Please confirm it is you: enter a code from your authenticator app.',
    stepUpDone: 'Thank you, confirmed.',
    enabled:
      'Two-factor authentication is on. Keep your recovery codes somewhere safe: each one works once, and they are shown only now.',
    disabled: 'Two-factor authentication is off.',
    adminCannotDisable:
      'Administrators cannot turn off two-factor authentication. You can replace your authenticator instead.',
    notEnabled: 'Two-factor authentication is not set up for this account.',
    noPending: 'No authenticator is waiting to be confirmed. Please start the setup again.',
    passwordRequired: 'Your current password is required.',
  },
  register: {
    usernameRequired: 'Username is required',
    usernameMin: 'Username must be at least 3 characters',
    usernameMax: 'Username must be at most 50 characters',
    usernameChars: 'Username can only contain letters, numbers, hyphens, and underscores',
    passwordRequired: 'Password is required',
    passwordMin: 'Password must be at least 8 characters',
    passwordMax: 'Password must be at most 256 characters',
    passwordLower: 'Password must contain at least one lowercase letter',
    passwordUpper: 'Password must contain at least one uppercase letter',
    passwordDigit: 'Password must contain at least one number',
    confirmRequired: 'Please confirm your password',
    confirmMismatch: 'Passwords do not match',
    firstNameRequired: 'First name is required',
    firstNameMin: 'First name must be at least 2 characters',
    emailRequired: 'Email is required',
    emailInvalid: 'Please enter a valid email address',
    streetRequired: 'Street address is required',
    streetMin: 'Street address must be at least 5 characters',
    tooLong: 'This value is too long',
    creating: 'Creating Account...',
    create: 'Create Account',
    activationNote: 'New accounts require administrator activation before first login',
    failed: 'Registration failed',
    failedRetry: 'Registration failed. Please try again.',
  },
  profile: {
    loginRequired: 'Please log in to view your profile.',
    sessionExpired: 'Session expired or unauthorized. Please log in again.',
    loadFailed: 'Error fetching profile data',
    updateFailed: 'Error updating profile',
    updated: 'Profile updated successfully!',
    passwordPrompt: 'Enter your new password (min 8 chars):',
    passwordUpdated: 'Password updated successfully',
    passwordFailed: 'Error changing password',
    preferencesSaved: 'Preferences saved',
    preferencesFailed: 'Error saving preferences',
    deleteConfirm: 'Are you sure you want to delete your account? This cannot be undone.',
    deleteFailed: 'Error deleting account',
  },
  /** Issue 46: changing the email needs the password and a confirmation from the new address. */
  emailChange: {
    passwordRequired: 'Enter your current password to change your email address.',
    passwordWrong: 'That is not your current password.',
    pending: (email: string) =>
      `We sent a confirmation link to ${email}. Your email address changes when you follow it; until then it stays as it is.`,
    confirmTitle: 'Confirm your new email address',
    confirmIntro: 'Confirm to use the new address for your account from now on.',
    confirmButton: 'Confirm new email address',
    confirmed: (email: string) => `Your email address is now ${email}.`,
    undoTitle: 'Undo the email change',
    undoIntro:
      'Undo keeps your old address (or brings it back), cancels the change and signs the account out everywhere. Choose a new password afterwards.',
    undoButton: 'Undo the change',
    undone: (email: string) =>
      `Your email address is ${email} again and every session has ended. Choose a new password now with "Forgot password?".`,
    invalidToken: 'This link is invalid, was already used or has expired.',
    missingToken: 'This link is incomplete. Please open it from the mail again.',
    taken: 'That address is now used by another account, so the change cannot be made.',
    failed: 'Something went wrong. Please try again.',
  },
  /** Issue 46: the profile's list of sessions. */
  sessions: {
    title: "Where you're signed in",
    intro: 'Sessions end by themselves after 12 hours without use. Sign out any you do not recognise.',
    current: 'This device',
    unknownDevice: 'Unknown device',
    lastSeen: 'Last active',
    signOut: 'Sign out',
    signOutOthers: 'Sign out everywhere else',
    ended: 'Session ended.',
    endedOthers: 'Every other session has ended.',
    notFound: 'That session has already ended.',
    loadFailed: 'Could not load your sessions. Please try again.',
    actionFailed: 'Could not end the session. Please try again.',
  },
  home: {
    loadFailed: 'Error loading homepage data',
    noInsights: 'No insights available at the moment',
  },
  research: {
    sessionExpired: 'Session expired. Please log in again.',
    loadFailed: 'Error loading research content',
    loginToView: 'Please log in to view your research.',
    untitled: 'Untitled Research',
    anonymous: 'Anonymous',
    noDate: 'No date',
    invalidDate: 'Invalid date',
    createFirst: 'Create First Research Report',
  },
  survey: {
    companySizeRequired: 'Company size is required',
    industryRequired: 'Industry is required',
    roleRequired: 'Your role is required',
    challengeRequired: 'Please select at least one challenge',
    topicRequired: 'Please select at least one topic of interest',
    emailRequired: 'Email is required for insights delivery',
    emailInvalid: 'Please enter a valid email address',
    failed: 'Failed to submit survey. Please try again.',
  },
  impressum: {
    loadFailed: 'Error loading impressum',
  },
  contact: {
    loadFailed: 'Error loading contact information',
    hoursWeekdays: 'Monday-Friday 9:00 AM - 5:00 PM (Your Time Zone)',
    hoursWeekend: 'Saturday-Sunday closed',
  },
} as const;

/**
 * The `error` of a 429 (issue 19), by what was limited. Not in SPEC.md: the screens show the server's text
 * (SPEC §8's helper), so these are written here once and the API fills in the wait.
 */
export const RATE_LIMIT_MESSAGES = {
  register: 'Too many registrations from your network.',
  login: 'Too many sign-in attempts from your network.',
  assessment: 'Too many assessments from your network.',
  anonymous: 'Too many requests from your network.',
  post: 'You are saving research too quickly.',
  comment: 'You are commenting too quickly.',
  like: 'You are liking too quickly.',
  account: 'Too many changes to your account.',
  reset: 'Too many password reset requests from your network.',
} as const;

/** "Please try again in 3 minutes." from a Retry-After in seconds (rounded up to what a reader needs). */
export function retryAfterText(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const wait =
    seconds < 60
      ? unit(Math.max(1, Math.ceil(seconds)), 'second')
      : seconds < 3600
        ? unit(Math.ceil(seconds / 60), 'minute')
        : unit(Math.ceil(seconds / 3600), 'hour');
  return `Please try again in ${wait}.`;
}

/** The full 429 text: what was limited, then when to try again. */
export const rateLimitMessage = (what: string, retryAfterSeconds: number) =>
  `${what} ${retryAfterText(retryAfterSeconds)}`;
