import { createMetrics, serveMetrics, type Logger, type Metrics } from '@forum/platform';

/** A process's metrics and the listener that serves them on METRICS_PORT. */
export interface ProcessMetrics {
  readonly metrics: Metrics;
  /** Where Prometheus scrapes them (http://<METRICS_HOST>:<port>/metrics). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The metrics of one process (`service` labels them), served on METRICS_PORT (METRICS_HOST, else
 * the process's HOST); null when METRICS_PORT is unset: nothing is then counted at all.
 */
export async function startMetrics(
  service: string,
  config: { readonly METRICS_PORT?: number | undefined; readonly METRICS_HOST?: string | undefined; readonly HOST: string },
  logger: Logger,
): Promise<ProcessMetrics | null> {
  if (config.METRICS_PORT === undefined) return null;
  const metrics = createMetrics(service);
  const listener = await serveMetrics(metrics, { port: config.METRICS_PORT, host: config.METRICS_HOST ?? config.HOST, logger });
  logger.info({ metrics: listener.url }, 'metrics listening');
  return { metrics, url: listener.url, close: () => listener.close() };
}
