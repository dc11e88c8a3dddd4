import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';

/** A service's Express app: its fast path first (true when it took the request), then the app. */
interface ExpressService {
  (req: IncomingMessage, res: ServerResponse): void;
  serveDirectly(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Until the services are Fastify plugins themselves: the gateway's /api context hands every request
 * to the Express app of its side (GET and HEAD the query service's, any other method the command
 * service's), which reads its own body and answers everything, its not-found and errors included.
 * The hook is the context's own (skip-override, as fastify-plugin marks a plugin), so it runs for
 * every /api route after the context's hooks (CORS), before Fastify would read a body.
 */
export function expressApi(apps: { readonly query: ExpressService; readonly command: ExpressService }): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (api) => {
    api.addHook('onRequest', (request, reply, done) => {
      reply.hijack();
      const app = request.raw.method === 'GET' || request.raw.method === 'HEAD' ? apps.query : apps.command;
      if (!app.serveDirectly(request.raw, reply.raw)) app(request.raw, reply.raw);
      done();
    });
  };
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
