import type { RecordedEvent } from '@forum/command-service/eventstore';
import type { Knex } from '@forum/platform';

/**
 * A named, versioned read model. Its tables live in the schema
 * `<name>_v<version>`; while a batch is applied the transaction's search_path
 * is that schema, so handlers use bare table names. Readers see the live
 * version through views in the `read` schema, named by `exposes`.
 */
export interface Projection {
  readonly name: string;
  readonly version: number;
  /** View name in `read` → table name in the projection's schema. */
  readonly exposes: Readonly<Record<string, string>>;
  /** Creates the tables (runs in the projection's schema, inside a transaction). */
  migrate(trx: Knex.Transaction): Promise<void>;
  /**
   * Creates the secondary indexes that serve reads (idempotently). A build
   * replaying the log creates them once it has caught up: building an index
   * once is far cheaper than maintaining it through a million updates. What
   * `apply` itself looks rows up by belongs in `migrate`.
   */
  indexes?(trx: Knex.Transaction): Promise<void>;
  /** Applies a batch of events, in log order, inside the batch's transaction. */
  apply(trx: Knex.Transaction, events: readonly RecordedEvent[]): Promise<void>;
  /**
   * A cheaper way through the log for a build that no one reads yet (a
   * rebuild, `verify`'s scratch copy). `apply` may leave part of a batch's
   * effect recorded as facts in the build's own tables, committed with the
   * batch's checkpoint, and `settle` completes them all at once (a million
   * votes become one aggregation instead of a million row updates). Settling
   * then applying more batches the ordinary way, or staging more and settling
   * again, gives the tables the ordinary `apply` gives.
   *
   * `settle` is a list of steps that touch different rows, each complete in
   * itself (it clears the facts it settled): the runner runs them at once,
   * each in its own transaction.
   */
  replay?: {
    apply(trx: Knex.Transaction, events: readonly RecordedEvent[]): Promise<void>;
    settle: readonly ((trx: Knex.Transaction) => Promise<void>)[];
  };
}

/** How a build no one reads applies a batch: staged where the projection can, else the ordinary way. */
export const replayApply = (projection: Projection): Projection['apply'] => projection.replay?.apply ?? projection.apply;

/** Settles a staged replay in one transaction, one step after another. */
export async function settleReplay(trx: Knex.Transaction, projection: Projection): Promise<void> {
  for (const step of projection.replay?.settle ?? []) await step(trx);
}

export const schemaOf = (projection: Pick<Projection, 'name' | 'version'>) => `${projection.name}_v${projection.version}`;
export const READ_SCHEMA = 'read';
export const CHECKPOINTS_CHANNEL = 'forum_checkpoints';
/** Runners LISTEN here for builds to pick up (a rebuild was requested, a build switched in). */
export const CONTROL_CHANNEL = 'forum_projection_control';

/** Builds `apply` from one handler per event type; types without a handler pass by. */
export function byEventType(
  handlers: Record<string, (trx: Knex.Transaction, event: RecordedEvent) => Promise<void>>,
): Projection['apply'] {
  return async (trx, events) => {
    for (const event of events) {
      const handler = handlers[event.type];
      if (handler) await handler(trx, event);
    }
  };
}
