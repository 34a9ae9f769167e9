// Prints the JavaScript the browser downloads to show the Home route: every JS response, its bytes on the
// wire (gzip, as the edge sends it) and the total, split into shell and remote. Needs `pnpm start`.
// Usage: node e2e/scripts/measure-home.mjs [url]
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.mjs';

const url = process.argv[2] ?? 'http://localhost:3000/';
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Network.enable');
// ENCODING=gzip measures what a gzip-only client downloads (Chromium asks for brotli too).
if (process.env.ENCODING) {
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': process.env.ENCODING } });
}
const responses = new Map();
cdp.on('Network.responseReceived', (e) => {
  if (e.type === 'Script')
    responses.set(e.requestId, {
      url: e.response.url,
      encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'none',
    });
});
cdp.on('Network.loadingFinished', (e) => {
  const r = responses.get(e.requestId);
  if (r) r.bytes = e.encodedDataLength;
});
const started = Date.now();
await page.goto(url, { waitUntil: 'networkidle' });
await page.getByRole('heading', { level: 1 }).first().waitFor();
const elapsed = Date.now() - started;
await browser.close();

const rows = [...responses.values()].filter((r) => r.bytes !== undefined);
const byOrigin = {};
for (const r of rows) {
  const origin = new URL(r.url).port;
  byOrigin[origin] = (byOrigin[origin] ?? 0) + r.bytes;
  console.log(`${(r.bytes / 1024).toFixed(1).padStart(7)} KiB  ${r.encoding.padEnd(5)} ${r.url}`);
}
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
for (const [port, bytes] of Object.entries(byOrigin))
  console.log(`port ${port}: ${(bytes / 1024).toFixed(1)} KiB`);
console.log(
  `TOTAL JS on the wire for ${url}: ${(total / 1024).toFixed(1)} KiB in ${rows.length} files (page ready in ${elapsed} ms)`,
);
