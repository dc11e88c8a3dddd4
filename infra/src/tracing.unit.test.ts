import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { startTracing, tracingAsked } from './tracing.ts';

const probe = () => trace.getTracer('probe').startSpan('probe');
const TRACEPARENT = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;

describe('startTracing', () => {
  it('with no OTLP endpoint set starts no SDK: the API stays the no-op it is, and a traceparent is not read', async () => {
    expect(await startTracing('forum-command-service', {})).toBeNull();
    const span = probe();
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    expect(trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT }))).toBeUndefined();
  });

  it('with an endpoint set records spans, reads W3C traceparents (no baggage), sends the spans there over OTLP, and stop() leaves the API as it was', async () => {
    const received: { url: string | undefined; type: string | undefined; body: Buffer }[] = [];
    const collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ url: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void collector.close());
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${(collector.address() as AddressInfo).port}`);
    onTestFinished(() => void vi.unstubAllEnvs());
    const tracing = await startTracing('forum-command-service');
    onTestFinished(() => tracing?.stop());
    expect(tracing).not.toBeNull();
    expect(probe().isRecording()).toBe(true);
    trace.getTracer('probe').startSpan('a-span-sent').end();
    const parent = propagation.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT, baggage: 'member=alice' });
    expect(trace.getSpanContext(parent)?.traceId).toBe('ab'.repeat(16));
    expect(propagation.getBaggage(parent)).toBeUndefined();
    expect(context.with(trace.setSpan(ROOT_CONTEXT, probe()), () => trace.getActiveSpan())).toBeDefined();

    await tracing!.stop();
    expect(received.map(({ url, type }) => ({ url, type }))).toEqual([{ url: '/v1/traces', type: 'application/x-protobuf' }]);
    expect(received[0]!.body.includes('a-span-sent')).toBe(true);
    expect(received[0]!.body.includes('forum-command-service')).toBe(true);
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
