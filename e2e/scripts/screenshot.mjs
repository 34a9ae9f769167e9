// Usage: node scripts/screenshot.mjs <url> <out.png> [dark] — a look at a page in Debian's Chromium.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.mjs';

const [url = 'http://localhost:3000/', out = '/tmp/shot.png', scheme] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage({
  viewport: { width: 1280, height: 900 },
  colorScheme: scheme === 'dark' ? 'dark' : 'light',
});
page.on('console', (m) => console.log(`[console.${m.type()}]`, m.text()));
page.on('pageerror', (e) => console.log('[pageerror]', e.message));
await page.goto(url, { waitUntil: 'networkidle' });
await page.waitForTimeout(500);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(`saved ${out}`);
