// The edge process's entry (`node dist/main.mjs`): traces first, then the edge. OpenTelemetry's HTTP
// instrumentation patches node:http when it starts, so the edge's code (src/server-process.ts, bundled on its
// own as dist/server-process.mjs by build.mjs) is imported only afterwards (docs/decisions/0044-traces.md).
// Without OTEL_EXPORTER_OTLP_ENDPOINT this is one check and the import.
import { startTelemetry } from '@app/server-telemetry';

await startTelemetry({
  serviceName: 'edge',
  port: process.env.PORT || 3000,
  // /metrics (@app/server-metrics' METRICS_PATH) and the probes (edge-endpoints.ts' EDGE_PATHS), which the
  // entry does not import: it stays this small.
  untracedPaths: ['/metrics', '/_edge/live', '/_edge/ready', '/_edge/status'],
});
await import('./server-process');
