import fs from 'node:fs';

/**
 * The mark of a violation a test provokes on purpose (tests/isolation.spec.ts: a hostile release's inline
 * script, which the CSP must refuse and report): its script starts with it, and the report's sample (the
 * policy asks for 'report-sample') carries it.
 */
export const EXPECTED_VIOLATION = 'e2e-expected-violation';

/**
 * After the whole run: every CSP violation report the edges received (report-uri, collected in
 * CSP_REPORT_FILE by the servers the suite started) fails the run, including reports from pages in
 * contexts that the per-test guard (support/test.ts) does not watch; but those a test provoked on purpose.
 */
export default function cspTeardown(): void {
  const file = process.env.E2E_CSP_REPORT_FILE;
  if (!file || !fs.existsSync(file)) return;
  const from = Number(process.env.E2E_CSP_REPORT_START ?? 0);
  const reports = fs
    .readFileSync(file, 'utf8')
    .slice(from)
    .split('\n')
    .filter((line) => line.trim() && !line.includes(EXPECTED_VIOLATION));
  if (reports.length > 0)
    throw new Error(`Content-Security-Policy violations were reported:\n${reports.join('\n')}`);
}
