export * from './auth.ts';
export * from './bulkhead.ts';
export * from './config.ts';
export * from './registration.ts';
// withStatementsOnErrors and recordStatement are the package's own wiring of its knex instances
export {
  CONNECT_TIMEOUT_MS,
  createKnex,
  createPgPool,
  databaseCheck,
  prepared,
  IDLE_IN_TRANSACTION_TIMEOUT_MS,
  QUICK_QUERY_TIMEOUT_MS,
  REQUEST_QUERY_TIMEOUT_MS,
  type Knex,
} from './db.ts';
export * from './errors.ts';
export * from './database-unavailable.ts';
export * from './health.ts';
export * from './http.ts';
export { correlationIdOf, createLogger, incomingId, logAnswer, logFormatFor, markStreamingAnswer, trackAnswer, type Logger } from './logger.ts';
export * from './read-db.ts';
export * from './replication.ts';
export * from './sleep.ts';
export * from './client-address.ts';
export * from './limiter-key.ts';
export * from './notification-listener.ts';
export * from './http-server.ts';
export { activeTraceparent, batchJoin, inSpan, withTraceHeaders } from './tracing.ts';
export type { RequestHook } from './request-hook.ts';
export * from './mail/unsubscribe-token.ts';
export * from './mail/mailer.ts';
export * from './mail/escape-html.ts';
export * from './wake-loop.ts';
export * from './advisory-lock-session.ts';
export * from './api-document.ts';
export { createMetrics, type BuildLag, type Metrics, type PoolUse } from './metrics/metrics.ts';
export { knexPoolUse, pgPoolUse } from './metrics/pools.ts';
export { METRICS_PATH, serveMetrics, type MetricsListener } from './metrics/serve.ts';
