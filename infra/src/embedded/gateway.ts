import { existsSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHttpApp, errorHandler, runChecks, type Logger, type ReadinessCheck } from '@forum/platform';
import type { CommandApp } from '@forum/command-service';
import type { QueryApp } from '@forum/query-service';
import express, { type Express, type RequestHandler } from 'express';

export interface GatewayRoutes {
  readonly command: CommandApp;
  readonly query: QueryApp;
  /** The embedded realm; absent when an external issuer is configured. */
  readonly identity?: (req: IncomingMessage, res: ServerResponse) => void;
  /** The embedded realm's Keycloak-compatible admin API (`/admin/realms/forum/users`). */
  readonly identityAdmin?: (req: IncomingMessage, res: ServerResponse) => void;
  readonly forumWebDir: string;
  readonly adminWebDir: string;
  readonly checks: Record<string, ReadinessCheck>;
  readonly logger: Logger;
}

/**
 * One origin for the whole product: `/` forum-web, `/admin` admin-web,
 * `GET|HEAD /api/*` query-service, other methods on `/api/*` command-service,
 * `/realms/forum/*` the embedded identity realm.
 */
export function createGateway(routes: GatewayRoutes): (req: IncomingMessage, res: ServerResponse) => void {
  const app = createHttpApp();
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await runChecks(routes.checks, 2000);
    const ready = Object.values(checks).every((c) => c.ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  });
  if (routes.identity) app.use('/realms/forum', routes.identity);
  if (routes.identityAdmin) app.use('/admin/realms/forum', routes.identityAdmin);
  app.use('/admin', spa(routes.adminWebDir, 'admin-web'));
  app.use('/', spa(routes.forumWebDir, 'forum-web'));
  app.use(errorHandler(routes.logger));
  // /api goes straight to its service (which has its own not-found and error answers): one
  // framework in the way of a read, not two; a visitor's answer kept in memory, the hottest
  // reads and the hottest commands go out before any
  return (req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/api/') || url === '/api' || url.startsWith('/api?')) {
      if (req.method === 'GET' || req.method === 'HEAD') {
        if (!routes.query.serveDirectly(req, res)) routes.query(req, res);
      } else if (!routes.command.serveDirectly(req, res)) routes.command(req, res);
      return;
    }
    app(req, res);
  };
}

/** A built single-page app: its files, and index.html for every other GET that wants a page. */
function spa(dir: string, name: string): RequestHandler {
  const index = path.join(dir, 'index.html');
  const files = express.static(dir, { index: false, maxAge: '1h', immutable: false });
  const router = express.Router();
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  router.use(files);
  router.get('/{*splat}', (req, res) => {
    if (!existsSync(index)) {
      res.status(503).type('text').send(`${name} is not built: run "npm run build:web" (npm start does it for you).`);
      return;
    }
    res.set('Cache-Control', 'no-cache').sendFile(index);
  });
  return router;
}
