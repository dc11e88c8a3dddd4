import { Router } from 'express';

export type ReadinessCheck = () => Promise<{ ok: boolean; detail?: unknown }>;

/**
 * /healthz: the process answers. /readyz: every dependency check passes within
 * its time bound; 503 with the failing checks otherwise.
 */
export function healthRoutes(checks: Record<string, ReadinessCheck>, timeoutMs = 2000): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await runChecks(checks, timeoutMs);
    const ready = Object.values(results).every((r) => r.ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: results });
  });
  return router;
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
