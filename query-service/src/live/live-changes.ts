import type { EventStore } from '@forum/eventstore';
import type { Knex, Logger } from '@forum/platform';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import { createPostsStore } from '../store/posts.ts';
import { ChangeFollower } from './follower.ts';
import { StreamHub, type HubOptions } from './hub.ts';
import { StreamTickets } from './tickets.ts';

export interface LiveSettings extends HubOptions {
  /** The key of the stream tickets; a random one per process when not given (see StreamTickets). */
  readonly ticketSecret?: string | undefined;
}

/** The change stream of one query-service process: its streams (the hub), their tickets, and the follower that feeds them. */
export interface LiveChanges {
  readonly hub: StreamHub;
  readonly tickets: StreamTickets;
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
  const follower = new ChangeFollower({ store: deps.store, watcher: deps.watcher, countsOf: (ids) => posts.countsOf(ids), hub, logger: deps.logger });
  follower.start(start);
  return {
    hub,
    tickets: new StreamTickets(deps.settings.ticketSecret),
    endStreams: () => hub.close(),
    async close() {
      hub.close();
      await follower.stop();
    },
  };
}
