import { errorHandler, healthRoutes, jsonBody, notFoundHandler, requestLogger, createHttpApp, type Logger, type ProxyTrust, type TokenVerifier } from '@forum/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { ForumCommands } from '../domain/forum.ts';
import type { EventStore } from '@forum/eventstore';
import type { UserDirectory } from '../lookup/users.ts';
import type { ProjectionControl } from '../ports/projection-control.ts';
import { adminRoutes, contactRoutes } from './admin.ts';
import { communityRoutes } from './community.ts';
import { createHotCommands } from './hot-commands.ts';
import { membershipRoutes } from './membership.ts';
import { meRoutes } from './me.ts';
import { operationsRoutes } from './operations.ts';
import { postRoutes } from './posts.ts';

export interface CommandAppDeps {
  readonly store: EventStore;
  readonly commands: ForumCommands;
  readonly verifyToken: TokenVerifier;
  readonly logger: Logger;
  readonly clock: () => Date;
  readonly directory: UserDirectory;
  /** Where browsers reach the forum (an origin such as https://forum.example): photo addresses may not point at it. */
  readonly forumOrigin: string;
  /** Rebuilds from the admin API; without it POST /api/admin/projections/:name/rebuild answers 503. */
  readonly projections?: ProjectionControl;
  /** Which proxies may say who the client is (TRUST_PROXY); by default none: the TCP peer is. */
  readonly trustProxy?: ProxyTrust;
}

/**
 * The write side's handler for an HTTP server: the members' most frequent commands go out before
 * any framework sees the request (createHotCommands); the rest goes to the app. Start the server
 * with `serveDirectly` first, not with the app alone (which answers the same, only slower).
 */
export interface CommandApp extends Express {
  /** Takes `req` as one of the hot commands and returns true; else false, and the app is to take it. */
  serveDirectly(req: IncomingMessage, res: ServerResponse): boolean;
}

/** The write side of /api: every method but GET and HEAD. */
export function createCommandApp(deps: CommandAppDeps): CommandApp {
  const app = createHttpApp();
  app.use(requestLogger(deps.logger));
  app.use(
    healthRoutes({
      eventStore: async () => ({ ok: true, detail: { head: (await deps.store.head()).globalPosition.toString() } }),
    }),
  );
  app.use('/api', jsonBody(), postRoutes(deps), meRoutes(deps), membershipRoutes(deps), communityRoutes(deps), adminRoutes(deps), contactRoutes(deps), operationsRoutes(deps));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return Object.assign(app, { serveDirectly: createHotCommands(deps) });
}
