// Debian's Chromium, never a downloaded browser, with the flags this machine's closed network needs.
// One place for Playwright's config and the helper scripts.
// CHROMIUM_PATH; CHROME_PATH (chrome-launcher's own name, which bench:web read) is taken when it alone is set.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
