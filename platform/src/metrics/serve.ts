import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from '../logger.ts';
import type { Metrics } from './metrics.ts';

/** The path Prometheus scrapes on METRICS_PORT. */
export const METRICS_PATH = '/metrics';

export interface MetricsListener {
  /** Where the metrics are scraped, e.g. http://127.0.0.1:9464/metrics. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The metrics on a listener of their own (METRICS_PORT on `host`), never on the port the public
 * reaches: GET /metrics answers the registry in Prometheus's text format, any other path 404.
 */
export async function serveMetrics(metrics: Metrics, options: { port: number; host: string; logger: Logger }): Promise<MetricsListener> {
  const { registry } = metrics;
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) return void res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        options.logger.error({ err: error }, 'metrics: a scrape failed');
        res.writeHead(500).end();
      },
    );
  };
  const server = createServer(answer);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as { port: number };
  const host = options.host === '::' || options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${METRICS_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
