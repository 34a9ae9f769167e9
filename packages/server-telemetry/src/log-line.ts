// The one way the API and the edge write a JSON log line (issue 48): the line as given, plus the trace and
// span of the request it was written for when traces are on (docs/operations.md, "Traces"), so one request's
// lines in both services' logs can be found from its trace, and its trace from any of its lines.
// Only @opentelemetry/api is imported here: without a started SDK its context is the no-op one, and
// `traceFields()` costs a lookup in an empty context (no span, no fields: the lines stay as they were).
import { isSpanContextValid, trace } from '@opentelemetry/api';

export interface TraceFields {
  trace_id: string;
  span_id: string;
}

/** The active span's ids (the request's server span, or a span started inside it), or null outside one. */
export function traceFields(): TraceFields | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const context = span.spanContext();
  return isSpanContextValid(context) ? { trace_id: context.traceId, span_id: context.spanId } : null;
}

/** Writes `line` as one JSON line on stdout (or stderr), with `trace_id` and `span_id` inside a span. */
export function writeLogLine(line: object, stream: 'stdout' | 'stderr' = 'stdout'): void {
  const fields = traceFields();
  process[stream].write(`${JSON.stringify(fields ? { ...line, ...fields } : line)}\n`);
}
