/**
 * Issue 46: the shell's words around the second factor (SPEC, "Two-factor authentication"). The API's own
 * answers (setup required, step-up required, wrong code) are MESSAGES.twoFactor in @app/contracts.
 */
export const TWO_FACTOR_TEXTS = {
  setUpLink: 'Set up two-factor authentication in your profile',
  stepUpTitle: 'Confirm it is you',
  codeLabel: 'Authentication code',
  codeHint: 'The 6-digit code from your authenticator app, or one of your recovery codes.',
  confirm: 'Confirm',
  confirming: 'Confirming...',
  cancel: 'Cancel',
} as const;
