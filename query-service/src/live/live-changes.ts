import type { EventStore } from '@forum/eventstore';
import { clientAddress, type Knex, type Logger, type ProxyTrust } from '@forum/platform';
import type { IncomingMessage } from 'node:http';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import { createNotificationsStore } from '../store/notifications.ts';
import { createPostsStore } from '../store/posts.ts';
import { ChangeFollower } from './follower.ts';
import { StreamHub, type HubOptions } from './hub.ts';
import { StreamTickets } from './tickets.ts';

export interface LiveSettings extends HubOptions {
  /** The key of the stream tickets; a random one per process when not given (see StreamTickets). */
  readonly ticketSecret?: string | undefined;
  /** Which proxies may say who the client is (TRUST_PROXY). */
  readonly trustProxy: ProxyTrust;
}

/** The change stream of one query-service process: its streams (the hub), their tickets, and the follower that feeds them. */
export interface LiveChanges {
  readonly hub: StreamHub;
  readonly tickets: StreamTickets;
  /** The client a request's stream counts against (its address, as TRUST_PROXY lets proxies say). */
  clientOf(request: IncomingMessage): string;
  /** Ends every stream and refuses new ones (first thing when the server stops: nothing then waits for a stream). */
  endStreams(): void;
  /** Ends the streams and stops following the log. */
  close(): Promise<void>;
}

export interface LiveDeps {
  /** The log, followed from its head. */
  readonly store: Pick<EventStore, 'subscribe' | 'head'>;
  readonly watcher: CheckpointWatcher;
  /** The read pool (counts of posts from read.posts). */
  readonly db: Knex;
  readonly logger: Logger;
  readonly settings: LiveSettings;
}

/** Starts the change stream from the log's head: one follower, one hub (see docs/live.md). */
export async function startLiveChanges(deps: LiveDeps): Promise<LiveChanges> {
  const start = await deps.store.head();
  const hub = new StreamHub(start, deps.settings);
  const posts = createPostsStore(deps.db);
  const notifications = createNotificationsStore(deps.db);
  const follower = new ChangeFollower({
    store: deps.store,
    watcher: deps.watcher,
    countsOf: (ids) => posts.countsOf(ids),
    reachedBy: (positions, members) => notifications.reachedBy(positions, members),
    hub,
    logger: deps.logger,
  });
  follower.start(start);
  return {
    hub,
    tickets: new StreamTickets(deps.settings.ticketSecret),
    clientOf: (request) => clientAddress(request, deps.settings.trustProxy),
    endStreams: () => hub.close(),
    async close() {
      hub.close();
      await follower.stop();
    },
  };
}
