import { context, trace } from '@opentelemetry/api';
import { node, tracing } from '@opentelemetry/sdk-node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { traceFields, writeLogLine } from './log-line';

// The lines as the services write them, captured from stdout/stderr.
function captured(stream: 'stdout' | 'stderr') {
  const lines: Array<Record<string, unknown>> = [];
  vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(JSON.parse(String(chunk)));
    return true;
  });
  return lines;
}
afterEach(() => vi.restoreAllMocks());

describe('without a tracer (telemetry off)', () => {
  it('writes the line as given: no trace fields', () => {
    const lines = captured('stdout');
    writeLogLine({ level: 'info', msg: 'GET /api/posts', status: 200 });
    expect(lines).toEqual([{ level: 'info', msg: 'GET /api/posts', status: 200 }]);
    expect(traceFields()).toBeNull();
  });
});

describe('with the SDK tracing', () => {
  const exporter = new tracing.InMemorySpanExporter();
  const provider = new node.NodeTracerProvider({
    spanProcessors: [new tracing.SimpleSpanProcessor(exporter)],
  });
  beforeAll(() => provider.register());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  it("adds the active span's trace_id and span_id, also after an await inside it", async () => {
    const lines = captured('stderr');
    const tracer = trace.getTracer('test');
    const ids = await tracer.startActiveSpan('GET /post/:id', async (span) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      writeLogLine({ level: 'error', msg: 'failed' }, 'stderr');
      span.end();
      return span.spanContext();
    });
    expect(lines).toEqual([{ level: 'error', msg: 'failed', trace_id: ids.traceId, span_id: ids.spanId }]);
    expect(ids.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('adds nothing outside a span, even with the tracer registered', () => {
    const lines = captured('stdout');
    writeLogLine({ level: 'info', msg: 'API listening' });
    expect(lines).toEqual([{ level: 'info', msg: 'API listening' }]);
  });

  it('adds nothing for a span that is not valid (a non-recording parent of zeros)', () => {
    const lines = captured('stdout');
    const invalid = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });
    context.with(trace.setSpan(context.active(), invalid), () => writeLogLine({ msg: 'x' }));
    expect(lines).toEqual([{ msg: 'x' }]);
  });
});
