import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';

/** The query service's Express app: its fast path first (true when it took the request), then the app. */
interface ExpressService {
  (req: IncomingMessage, res: ServerResponse): void;
  serveDirectly(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Until the query service is a Fastify plugin itself: the gateway's /api context hands every GET and
 * HEAD to its Express app, which answers everything, its not-found and errors included.
 * The hook is the context's own (skip-override, as fastify-plugin marks a plugin), so it runs for
 * every /api route after the context's hooks (CORS), before Fastify would read a body.
 */
export function expressApi(apps: { readonly query: ExpressService }): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (api) => {
    api.addHook('onRequest', (request, reply, done) => {
      if (request.raw.method === 'GET' || request.raw.method === 'HEAD') {
        reply.hijack();
        if (!apps.query.serveDirectly(request.raw, reply.raw)) apps.query(request.raw, reply.raw);
      }
      done();
    });
  };
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
