// The API process's entry (`node dist/main.mjs`): traces first, then the server. OpenTelemetry's HTTP
// instrumentation patches node:http when it starts, so the server's code (src/server-process.ts, bundled on
// its own as dist/server-process.mjs by build.mjs) is imported only afterwards (docs/decisions/0044-traces.md).
// Without OTEL_EXPORTER_OTLP_ENDPOINT this is one check and the import.
import { startTelemetry } from '@app/server-telemetry';

await startTelemetry({
  serviceName: 'api',
  port: process.env.PORT || 4000,
  // /metrics (@app/server-metrics' METRICS_PATH) and the probes (@app/contracts' API_PATHS.health*), which
  // the entry does not import: @app/contracts would bring all its schemas into this small file.
  untracedPaths: ['/metrics', '/api/health', '/api/health/live', '/api/health/ready'],
});
await import('./server-process');
