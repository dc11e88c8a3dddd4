import type { Logger, Metrics, ProxyTrust, TokenVerifier, UnsubscribeTokens } from '@forum/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EventStore } from '@forum/eventstore';
import type { ForumCommands } from '../domain/forum.ts';
import type { UserDirectory } from '../lookup/users.ts';
import type { ProjectionControl } from '../ports/projection-control.ts';

/** What the command API's routes are given: the commands, the token check, the clock and the service's ports. */
export interface CommandAppDeps {
  readonly store: EventStore;
  readonly commands: ForumCommands;
  readonly verifyToken: TokenVerifier;
  readonly logger: Logger;
  readonly clock: () => Date;
  readonly directory: UserDirectory;
  /** Where browsers reach the forum (an origin such as https://forum.example): photo addresses may not point at it. */
  readonly forumOrigin: string;
  /** Checks the tokens of emails' unsubscribe links (signed with the secret the mailer signs with). */
  readonly unsubscribeTokens: Pick<UnsubscribeTokens, 'verify'>;
  /** Rebuilds from the admin API; without it POST /api/admin/projections/:name/rebuild answers 503. */
  readonly projections?: ProjectionControl;
  /** Which proxies may say who the client is (TRUST_PROXY); by default none: the TCP peer is. */
  readonly trustProxy?: ProxyTrust;
  /** The process's metrics (command-service on its own): its answers are timed into them. */
  readonly metrics?: Metrics;
}

/** The scope an area's routes are declared in: schemas from contracts give their validation and types. */
export type CommandRoutes = Parameters<FastifyPluginAsyncZod>[0];
