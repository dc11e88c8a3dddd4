import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CSP_NONCE_PLACEHOLDER, SILENT_CHECK_SSO_PAGE } from '@forum/contracts';
import { createHttpApp, errorHandler, runChecks, type HttpServer, type Logger, type ReadinessCheck } from '@forum/platform';
import type { CommandApp } from '@forum/command-service';
import express, { type RequestHandler } from 'express';
import type { SecurityHeaders } from './security-headers.ts';

export interface GatewayRoutes {
  readonly command: CommandApp;
  /** The query-service's server, ready (its routes under /api). */
  readonly query: HttpServer;
  /** The embedded realm; absent when an external issuer is configured. */
  readonly identity?: (req: IncomingMessage, res: ServerResponse) => void;
  /** The embedded realm's Keycloak-compatible admin API (`/admin/realms/forum/users`). */
  readonly identityAdmin?: (req: IncomingMessage, res: ServerResponse) => void;
  readonly forumWebDir: string;
  readonly adminWebDir: string;
  readonly checks: Record<string, ReadinessCheck>;
  readonly logger: Logger;
  /** The browser security headers every answer carries (createSecurityHeaders). */
  readonly headers: SecurityHeaders;
}

/**
 * One origin for the whole product: `/` forum-web, `/admin` admin-web,
 * `GET|HEAD /api/*` query-service, other methods on `/api/*` command-service,
 * `/realms/forum/*` the embedded identity realm. Every answer carries the security headers.
 */
export function createGateway(routes: GatewayRoutes): (req: IncomingMessage, res: ServerResponse) => void {
  const { headers } = routes;
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
  // the console's base is /admin/ (its assets, and the realm's redirects back to it)
  app.get('/admin', (req, res, next) => (req.path === '/admin' ? res.redirect(301, `/admin/${req.originalUrl.slice('/admin'.length)}`) : next()));
  app.use('/admin', spa(routes.adminWebDir, 'admin-web', headers));
  app.use('/', spa(routes.forumWebDir, 'forum-web', headers));
  app.use(errorHandler(routes.logger));
  // /api goes straight to its service (which has its own not-found and error answers): one
  // framework in the way of a request, not two; the hottest commands go out before any
  return (req, res) => {
    headers.every(req, res);
    const url = req.url ?? '';
    if (url.startsWith('/api/') || url === '/api' || url.startsWith('/api?')) {
      if (headers.cors(req, res)) return;
      if (req.method === 'GET' || req.method === 'HEAD') {
        routes.query.routing(req, res);
      } else if (!routes.command.serveDirectly(req, res)) routes.command(req, res);
      return;
    }
    app(req, res);
  };
}

/**
 * A built single-page app: its files, and index.html for every other GET that wants a page, with a
 * fresh CSP nonce in the place the build left for it (never cached: the nonce is this answer's).
 */
function spa(dir: string, name: string, headers: SecurityHeaders): RequestHandler {
  const index = path.join(dir, 'index.html');
  // no directory redirects: send's own redirect answer replaces the gateway's CSP with a weaker one
  const files = express.static(dir, {
    index: false,
    redirect: false,
    maxAge: '1h',
    immutable: false,
    setHeaders: (res, file) => {
      if (path.basename(file) === SILENT_CHECK_SSO_PAGE) headers.checkSsoPage(res.req, res);
    },
  });
  const router = express.Router();
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false, redirect: false }));
  router.use(files);
  // read once it is there: a build while the server runs is not picked up (npm start builds first)
  let html: string | undefined;
  router.get('/{*splat}', async (req, res) => {
    try {
      html ??= await readFile(index, 'utf8');
    } catch {
      res.status(503).type('text').send(`${name} is not built: run "npm run build:web" (npm start does it for you).`);
      return;
    }
    const nonce = headers.appDocument(req, res);
    res.set('Cache-Control', 'no-store').type('html').send(html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
  });
  return router;
}
