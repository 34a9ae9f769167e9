import fs from 'node:fs';

/**
 * After the whole run: every CSP violation report the edges received (report-uri, collected in
 * CSP_REPORT_FILE by the servers the suite started) fails the run, including reports from pages in
 * contexts that the per-test guard (support/test.ts) does not watch.
 */
export default function cspTeardown(): void {
  const file = process.env.E2E_CSP_REPORT_FILE;
  if (!file || !fs.existsSync(file)) return;
  const from = Number(process.env.E2E_CSP_REPORT_START ?? 0);
  const reports = fs.readFileSync(file, 'utf8').slice(from).trim();
  if (reports) throw new Error(`Content-Security-Policy violations were reported:\n${reports}`);
}
