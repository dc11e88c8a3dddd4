import { createServer, type RequestListener, type Server } from 'node:http';
import { answerClientErrors, type HttpServer } from '@forum/platform';
import type { EmbeddedConfig } from './config.ts';
import { createSecurityHeaders, type SecurityHeaders } from './security-headers.ts';

/** The forum's one port, bound before the gateway behind it is made. */
export interface PublicPort {
  /** Where browsers reach the forum (PUBLIC_URL, or http://localhost:<port>). */
  readonly url: string;
  readonly port: number;
  /** Where this machine reaches it (http://127.0.0.1:<port>). */
  readonly internal: string;
  /** The browser security headers every answer carries. */
  readonly headers: SecurityHeaders;
  /** From now on the gateway takes the requests. */
  open(gateway: HttpServer): void;
  /** Stops taking connections, waits for the open ones (those still open after 3 s are cut), then closes the gateway. */
  close(): Promise<void>;
}

/**
 * Binds PORT first: the public URL (and so the embedded realm's issuer) may depend on the port the
 * OS gives; until the gateway is opened every request answers 503 with Retry-After.
 */
export async function bindPublicPort(config: Pick<EmbeddedConfig, 'PORT' | 'HOST' | 'PUBLIC_URL' | 'OIDC_ISSUER' | 'CORS_ORIGINS'>): Promise<PublicPort> {
  const headers = await createSecurityHeaders({
    https: config.PUBLIC_URL !== undefined && new URL(config.PUBLIC_URL).protocol === 'https:',
    externalIssuer: config.OIDC_ISSUER,
    corsOrigins: config.CORS_ORIGINS,
  });
  let gateway: HttpServer | null = null;
  const server = await listen(config.PORT, config.HOST, (req, res) => {
    if (gateway) return gateway.routing(req, res);
    headers.every(req, res);
    res.writeHead(503, { 'Retry-After': '1' }).end();
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: (config.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    port,
    internal: `http://127.0.0.1:${port}`,
    headers,
    open(ready) {
      gateway = ready;
    },
    async close() {
      // the gateway closes after the server has answered its last request (a closing Fastify answers 503 of its own)
      await closeServer(server);
      await gateway?.close();
    },
  };
}

function listen(port: number, host: string, handler: RequestListener): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.keepAliveTimeout = 65_000;
    answerClientErrors(server);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 3000).unref();
  });
}
