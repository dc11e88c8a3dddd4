import type { Tracing } from './tracing-sdk.ts';

export type { Tracing } from './tracing-sdk.ts';

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
 * OTEL_SERVICE_NAME says otherwise. Await it first thing in a process's entry.
 */
export async function startTracing(service: string, env: TracingEnv = process.env): Promise<Tracing | null> {
  if (!tracingAsked(env)) return null;
  // the SDK and its exporter are loaded only here: a process without traces never reads them
  const [{ registerTracing }, { BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
    import('./tracing-sdk.ts'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  return registerTracing(service, new BatchSpanProcessor(new OTLPTraceExporter()));
}
