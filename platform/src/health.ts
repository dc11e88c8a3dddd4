import type { FastifyPluginCallback } from 'fastify';
import { markProbeAnswer } from './logger.ts';
import type { Metrics } from './metrics/metrics.ts';

export type ReadinessCheck = () => Promise<{ ok: boolean; detail?: unknown }>;

/**
 * The health routes (register the plugin): /healthz, the process answers; /readyz, every
 * dependency check passes within its time bound, 503 with the failing checks otherwise. With
 * `metrics`, the same checks are run at each scrape (forum_ready, forum_readiness_check_ok).
 */
export function healthPlugin(
  checks: Record<string, ReadinessCheck>,
  options: { timeoutMs?: number; metrics?: Metrics | undefined } = {},
): FastifyPluginCallback {
  const timeoutMs = options.timeoutMs ?? 2000;
  options.metrics?.watchReadiness(() => runChecks(checks, timeoutMs));
  return (server, _options, done) => {
    // asked every second by gateways and load balancers: their access lines are debug (markProbeAnswer), and they make no span
    server.get('/healthz', { config: { probe: true } }, (_request, reply) => {
      markProbeAnswer(reply.raw);
      return { status: 'ok' };
    });
    server.get('/readyz', { config: { probe: true } }, async (_request, reply) => {
      markProbeAnswer(reply.raw);
      const { status, body } = await readiness(checks, timeoutMs);
      return reply.code(status).send(body);
    });
    done();
  };
}

/** /readyz's answer: 200 when every check passes, else 503, with each check's result. */
async function readiness(checks: Record<string, ReadinessCheck>, timeoutMs: number) {
  const results = await runChecks(checks, timeoutMs);
  const ready = Object.values(results).every((r) => r.ok);
  return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not ready', checks: results } };
}

export async function runChecks(checks: Record<string, ReadinessCheck>, timeoutMs: number) {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<{ ok: boolean; detail: string }>((resolve) => {
        timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
      });
      try {
        return [name, await Promise.race([check(), timeout])] as const;
      } catch (error) {
        return [name, { ok: false, detail: error instanceof Error ? error.message : String(error) }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries) as Record<string, { ok: boolean; detail?: unknown }>;
}
