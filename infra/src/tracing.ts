import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, hostDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

/** A process's tracing, once started: `stop` sends the spans not sent yet and unregisters it. */
export interface Tracing {
  stop(): Promise<void>;
}

/** `stop`, then the tracing's stop (its last spans sent): what a process does before it exits. */
export const thenStopTracing = (stop: () => Promise<void>, tracing: Tracing | null) => async (): Promise<void> => {
  await stop();
  await tracing?.stop();
};

/** The standard OpenTelemetry settings that turn traces on or off (docs/operations.md#traces); the SDK reads the rest itself. */
type TracingEnv = Readonly<
  Partial<Record<'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_SDK_DISABLED' | 'OTEL_TRACES_EXPORTER', string>>
>;

/** Whether these settings ask for traces: an OTLP endpoint is set, and neither the SDK nor the traces' exporter is turned off. */
export function tracingAsked(env: TracingEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true' && env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none';
}

/**
 * The process's traces, sent over OTLP (HTTP, protobuf) in batches to OTEL_EXPORTER_OTLP_ENDPOINT,
 * when `tracingAsked`; null otherwise, and the OpenTelemetry API stays the no-op it is (its spans
 * cost a small object each). `service` names the process (`forum`, `forum-command-service`…) unless
 * OTEL_SERVICE_NAME says otherwise. Call it first thing in a process's entry.
 */
export function startTracing(service: string, env: TracingEnv = process.env): Tracing | null {
  if (!tracingAsked(env)) return null;
  return registerTracing(service, new BatchSpanProcessor(new OTLPTraceExporter()));
}

/**
 * Registers the forum's tracer provider with `processor` (a test's in-memory exporter, or startTracing's
 * OTLP): spans in the async context of their parents, and W3C Trace Context alone as the propagator
 * (no baggage: the forum reads none, and would only pass on what a client sent).
 */
export function registerTracing(service: string, processor: SpanProcessor): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': service }))
    .merge(detectResources({ detectors: [hostDetector, envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return {
    async stop() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
