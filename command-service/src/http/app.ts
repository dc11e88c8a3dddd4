import { errorHandler, healthRoutes, jsonBody, notFoundHandler, requestLogger, createHttpApp, type Logger, type TokenVerifier } from '@forum/platform';
import type { ProjectionControl } from '@forum/projections';
import type { Express } from 'express';
import type { ForumCommands } from '../domain/forum.ts';
import type { EventStore } from '../eventstore/index.ts';
import type { UserDirectory } from '../lookup/users.ts';
import { adminRoutes, contactRoutes } from './admin.ts';
import { communityRoutes } from './community.ts';
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
  /** Rebuilds from the admin API; without it POST /api/admin/projections/:name/rebuild answers 503. */
  readonly projections?: ProjectionControl;
}

/** The write side of /api: every method but GET and HEAD. */
export function createCommandApp(deps: CommandAppDeps): Express {
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
  return app;
}
