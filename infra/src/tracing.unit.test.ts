import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startTracing, tracingAsked } from './tracing.ts';

const probe = () => trace.getTracer('probe').startSpan('probe');
const TRACEPARENT = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;

describe('startTracing', () => {
  it('with no OTLP endpoint set starts no SDK: the API stays the no-op it is, and a traceparent is not read', () => {
    expect(startTracing('command-service', {})).toBeNull();
    const span = probe();
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    expect(trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT }))).toBeUndefined();
  });

  it('with an endpoint set records spans, reads W3C traceparents (no baggage), and stop() leaves the API as it was', async () => {
    const tracing = startTracing('command-service', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    onTestFinished(() => tracing?.stop());
    expect(tracing).not.toBeNull();
    expect(probe().isRecording()).toBe(true);
    const parent = propagation.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT, baggage: 'member=alice' });
    expect(trace.getSpanContext(parent)?.traceId).toBe('ab'.repeat(16));
    expect(propagation.getBaggage(parent)).toBeUndefined();
    expect(context.with(trace.setSpan(ROOT_CONTEXT, probe()), () => trace.getActiveSpan())).toBeDefined();

    await tracing!.stop();
    expect(probe().isRecording()).toBe(false);
    expect(trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT }))).toBeUndefined();
  });
});

describe('tracingAsked', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
  ])('%j: %s', (env, asked) => {
    expect(tracingAsked(env)).toBe(asked);
  });
});
