// Receives the browser's Content-Security-Policy violation reports (the policy's report-uri). Each report
// becomes one JSON line: appended to CSP_REPORT_FILE when set (the e2e suite fails on any line), and
// written to stderr otherwise, at most MAX_LOGGED per process so a hostile page cannot flood the log.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 16 * 1024;
const MAX_LOGGED = 100;

type Report = Record<string, unknown>;

/** The fields worth keeping from a report (`application/csp-report` or a Reporting API body). */
function summary(raw: unknown) {
  const outer = (raw ?? {}) as Report;
  const body = (outer['csp-report'] ?? outer.body ?? outer ?? {}) as Report;
  const pick = (...keys: string[]) =>
    (keys.map((k) => body[k]).find((v) => typeof v === 'string') as string | undefined) ?? '';
  return {
    page: pick('document-uri', 'documentURL'),
    directive: pick('effective-directive', 'effectiveDirective', 'violated-directive'),
    blocked: pick('blocked-uri', 'blockedURL'),
    source: pick('source-file', 'sourceFile'),
    line: body['line-number'] ?? body.lineNumber ?? null,
    sample: pick('script-sample', 'sample'),
  };
}

export function cspReportHandler({ app, file }: { app: string; file?: string }) {
  let logged = 0;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return;
    }
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      res.writeHead(204);
      res.end();
      if (size > MAX_BODY_BYTES) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return;
      }
      const reports = Array.isArray(parsed) ? parsed : [parsed];
      for (const report of reports) {
        const line = JSON.stringify({ at: new Date().toISOString(), app, ...summary(report) });
        if (file) fs.appendFileSync(file, `${line}\n`);
        else if (logged < MAX_LOGGED) {
          logged += 1;
          console.warn(`CSP violation: ${line}`);
        }
      }
    });
  };
}
