import { HEADER_IDEMPOTENCY_KEY } from '@forum/contracts';
import {
  API_DOCUMENT_PATH,
  authenticate,
  createHttpServer,
  declareErrors,
  declareHeaders,
  registerApiDocument,
  healthPlugin,
  type HttpServer,
} from '@forum/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminRoutes, contactRoutes } from './admin.ts';
import { communityRoutes } from './community.ts';
import { followRoutes } from './follows.ts';
import { keepSentBody, takesIdempotencyKey } from './context.ts';
import type { CommandAppDeps } from './deps.ts';
import { answerDomainErrors } from './domain-errors.ts';
import { membershipRoutes } from './membership.ts';
import { meRoutes } from './me.ts';
import { moderationRoutes } from './moderation.ts';
import { notificationPreferenceRoutes, unsubscribeRoutes } from './notification-preferences.ts';
import { operationsRoutes } from './operations.ts';
import { postRoutes } from './posts.ts';

/**
 * The write side of /api (every method but GET and HEAD), to be registered under the prefix /api.
 * Its hooks stay in its own scope (no fastify-plugin wrapper): they never reach the read side's routes.
 *
 * The order of checks is the one the API has always had: the body is read first (415, 413, malformed JSON), then the
 * token (401), then the path's parameters and the body against the route's schemas (400), then the
 * command. Authentication is a preValidation hook for that reason: a preHandler would run after the
 * schemas, and a caller without a token would learn what is wrong with the input.
 */
export function commandApi(deps: CommandAppDeps): FastifyPluginAsyncZod {
  return async (api) => {
    api.setErrorHandler(answerDomainErrors);
    api.decorateRequest('sentBody', undefined);
    api.addHook('preValidation', keepSentBody);
    await api.register((members, _options, done) => {
      members.addHook('preValidation', authenticate(deps.verifyToken, { required: true }));
      // the token's 401s; a command that takes an Idempotency-Key (all but a few), the key sent again with another request
      declareErrors(members, ['UNAUTHENTICATED', 'ACCOUNT_DISABLED']);
      declareErrors(members, (route) => (takesIdempotencyKey(route) ? ['IDEMPOTENCY_KEY_REUSED'] : []));
      declareHeaders(members, { request: [HEADER_IDEMPOTENCY_KEY] }, takesIdempotencyKey);
      for (const routes of [
        postRoutes,
        meRoutes,
        notificationPreferenceRoutes,
        membershipRoutes,
        communityRoutes,
        followRoutes,
        adminRoutes,
        moderationRoutes,
        operationsRoutes,
      ])
        routes(members, deps);
      done();
    });
    // the Contact page: a token when sent (a bad one is 401), else a visitor
    await api.register((anyone, _options, done) => {
      anyone.addHook('preValidation', authenticate(deps.verifyToken, { required: false }));
      declareErrors(anyone, ['UNAUTHENTICATED', 'ACCOUNT_DISABLED']);
      contactRoutes(anyone, deps);
      done();
    });
    // an email's unsubscribe link: its signed token is the proof, whoever's browser or mail client posts it
    await api.register((links, _options, done) => {
      unsubscribeRoutes(links, deps);
      done();
    });
  };
}

/** command-service on its own: its health routes (/healthz, /readyz with the event store's head) and commandApi under /api. */
export function createCommandServer(deps: CommandAppDeps): HttpServer {
  const server = createHttpServer({ logger: deps.logger, metrics: deps.metrics });
  // its part of the API document, for the gateway to merge with the query-service's (the replicated layout)
  void registerApiDocument(server);
  server.get(API_DOCUMENT_PATH, () => server.swagger());
  void server.register(
    healthPlugin(
      {
        eventStore: async () => ({ ok: true, detail: { head: (await deps.store.head()).globalPosition.toString() } }),
      },
      { metrics: deps.metrics },
    ),
  );
  void server.register(commandApi(deps), { prefix: '/api' });
  return server;
}
