// The API as a process: configuration, the server, the drain on signals. Imported by src/main.ts once the
// traces are started (docs/decisions/0044-traces.md); `pnpm dev` and the child-process tests start main.ts.
import { onStopSignals } from '@app/http-lifecycle';
import { stopTelemetry } from '@app/server-telemetry';
import { writeLogLine } from '@app/server-telemetry/log';
import { type Config, loadConfig } from './config';
import { startServer } from './server';

/** Which database the start line names: PostgreSQL's host and database (never the password), or the file. */
const databaseLabel = ({ databaseUrl, dbPath }: Config) => {
  if (!databaseUrl) return dbPath;
  const url = new URL(databaseUrl);
  return `${url.host}${url.pathname}`;
};

const config = loadConfig();
// Log lines of the process itself (before a context exists, and after it closed) carry the wall clock's time.
const log = (line: Record<string, unknown>) => {
  if (config.logLevel === 'silent') return;
  writeLogLine({ level: 'info', time: new Date().toISOString(), ...line });
};
const server = await startServer(config, undefined, { processMetrics: true });
log({
  msg: 'API listening',
  url: server.url,
  db: databaseLabel(config),
  requiresActivation: config.requiresActivation,
  // Issue 46: said at start, and again at each reset request, when nothing can be delivered.
  mail: config.mail.smtpUrl ? 'smtp' : 'off (SMTP_URL is not set): mail waits in the outbox',
});

// SIGTERM (a supervisor, a rolling restart) and SIGINT (Ctrl+C) drain: readiness answers 503, no new
// connections, what is in flight finishes within DRAIN_TIMEOUT_MS, the database pool closes, exit 0.
// A second signal means "now": exit at once (docs/decisions/0028-process-lifecycle.md), unless it comes
// within STOP_REPEAT_WINDOW_MS of the first: that is the same stop, said in a line and otherwise ignored.
onStopSignals(
  (signal) => {
    log({ msg: 'API draining', signal, timeoutMs: config.drainTimeoutMs });
    server.drain(config.drainTimeoutMs).then(
      async ({ forced, ms }) => {
        log({ msg: 'API drained', ms, forced });
        // The spans of the last requests, sent before the exit (nothing to do without traces).
        await stopTelemetry();
        process.exit(0);
      },
      (error: unknown) => {
        // The context is closing or closed: the process's own wall clock, as in log() above.
        writeLogLine(
          { level: 'error', time: new Date().toISOString(), msg: 'API drain failed', error: String(error) },
          'stderr',
        );
        process.exit(1);
      },
    );
  },
  (signal) => {
    log({ msg: 'API stopping at once', signal });
    process.exit(1);
  },
  {
    sameStopMs: config.stopRepeatWindowMs,
    repeated: (signal, afterMs) =>
      log({
        msg: 'API signal repeated, ignored',
        signal,
        afterMs: Math.round(afterMs),
        windowMs: config.stopRepeatWindowMs,
      }),
  },
);
