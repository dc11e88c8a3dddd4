import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, detectResources, envDetector, hostDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

/** A process's tracing, once started: `stop` sends the spans not sent yet and unregisters it. */
export interface Tracing {
  stop(): Promise<void>;
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
