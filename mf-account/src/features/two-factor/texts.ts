/**
 * The profile's two-factor section (issue 46): headings, labels and hints SPEC.md words in its Profile
 * section. The API's answers (enabled, disabled, wrong code) are MESSAGES.twoFactor in @app/contracts.
 */
export const TWO_FACTOR_TEXTS = {
  title: 'Two-factor authentication',
  off: 'Off. Add a second step to your login: a 6-digit code from an authenticator app on your phone.',
  on: (left: number) =>
    `On. Your login asks for a code from your authenticator app. ${left} of 10 recovery codes left.`,
  requiredNote:
    'Administrators must keep two-factor authentication on; they can replace their authenticator.',
  setUp: 'Set up two-factor authentication',
  replace: 'Replace authenticator',
  turnOff: 'Turn off',
  password: 'Current password',
  currentCode: 'Code from your current authenticator',
  continue: 'Continue',
  working: 'Please wait...',
  cancel: 'Cancel',
  scan: 'Scan this QR code with your authenticator app (for example Google Authenticator, Microsoft Authenticator or 1Password).',
  qrAlt: 'QR code for your authenticator app',
  secretLabel: 'Or enter this key by hand:',
  newCode: 'Code from your authenticator app',
  newCodeHint: 'The 6-digit code the app shows for this account.',
  turnOn: 'Turn on',
  recoveryTitle: 'Your recovery codes',
  recoveryHint:
    'If you lose your phone, log in with one of these codes instead of a code from the app. Each works once.',
  saved: 'I have saved my recovery codes',
  confirmOff: 'Turn off two-factor authentication',
} as const;
