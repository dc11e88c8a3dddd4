import type { IncomingMessage, ServerResponse } from 'node:http';
import { isStreamingAnswer } from '../logger.ts';
import type { Metrics } from './metrics.ts';

/** The status of an answer whose client left before it was sent (nginx's word for it). */
const CLIENT_LEFT = '499';

/**
 * Times an answer into forum_http_request_duration_seconds once it is sent or its client left
 * (createHttpServer's onRequest hook): `route` is the pattern of the route that takes it, never the
 * URL, so the series stay few. A change stream's answer lasts as long as its reader: not timed.
 */
export function observeAnswer(metrics: Metrics, req: IncomingMessage, res: ServerResponse, route: string | undefined): void {
  const startedAt = performance.now();
  res.once('close', () => {
    if (isStreamingAnswer(res)) return;
    const status = res.writableFinished ? String(res.statusCode) : CLIENT_LEFT;
    metrics.httpRequestDuration.observe({ route: route ?? 'none', method: req.method ?? 'none', status }, (performance.now() - startedAt) / 1000);
  });
}
