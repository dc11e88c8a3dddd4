import type { EventStore, LogRange, RecordedEvent, SqlLog } from '@forum/eventstore';
import type { ForumEvent, ForumEventType, LogPosition } from '@forum/contracts';
import type { Knex } from '@forum/platform';

/**
 * An event as a projection is handed it: of the contracts' type `Type`, its data as the contracts
 * define it (for a union of types, a union discriminated by `type`), in its current shape (the
 * store upcasts what it reads). A type the forum does not define (a test's) comes with its data unknown.
 */
export type ProjectedEvent<Type extends string = ForumEventType> = Type extends ForumEventType
  ? RecordedEvent<Type, Extract<ForumEvent, { type: Type }>['data']>
  : RecordedEvent<Type>;

/**
 * A named, versioned read model. Its tables live in the schema
 * `<name>_v<version>`; while a batch is applied the transaction's search_path
 * is that schema, so handlers use bare table names. Readers see the live
 * version through views in the `read` schema, named by `exposes`.
 */
export interface Projection<Event extends RecordedEvent = RecordedEvent> {
  readonly name: string;
  readonly version: number;
  /**
   * View name in `read` → what it shows: a table of the projection's schema,
   * or a query over its tables (bare names; `tables`: those it reads, which
   * `verify` compares).
   */
  readonly exposes: Readonly<Record<string, string | ExposedQuery>>;
  /**
   * The event types `apply` reads, and the only ones it is handed. A replay reads only these
   * from the log (where it can filter it), its checkpoint still moving over the others.
   */
  readonly types: readonly Event['type'][];
  /**
   * The types of `types` whose personal data (names, emails, photos, texts) `apply` and the staged
   * replay read (default: all of them). The others reach them without it: opening it costs some
   * 20 to 40 µs an event in SQL (docs/security/erasure.md), and most readers want only ids.
   */
  readonly opens?: readonly Event['type'][];
  /** Creates the tables (runs in the projection's schema, inside a transaction). */
  migrate(trx: Knex.Transaction): Promise<void>;
  /**
   * Per table, the statements that create the secondary indexes serving
   * reads on it, one index each, idempotently (IF NOT EXISTS; in the
   * projection's schema). A build replaying the log creates them once it has
   * caught up, at once, each in a transaction of its own, and analyses each
   * table as soon as its own indexes are there: building an index once is
   * far cheaper than maintaining it through a million updates. What `apply`
   * itself looks rows up by belongs in `migrate`.
   */
  readonly indexes?: Readonly<Record<string, readonly string[]>>;
  /** Applies a batch of events of its `types` (see `applyOwn`), in log order, inside the batch's transaction. */
  apply(trx: Knex.Transaction, events: readonly Event[]): Promise<void>;
  /**
   * A cheaper way through the log for a build that no one reads yet (a
   * rebuild, `verify`'s scratch copy), when the log is in the read models'
   * database (the PostgreSQL event store): `stage` goes through a whole range
   * of it set-wise in SQL (`log`: the range's events of the projection's
   * `types`, see `SqlLog.events`), committed with the range's checkpoint. It may leave part
   * of the range's effect recorded as facts in the build's own tables, which
   * `settle` completes all at once (a million votes become one aggregation
   * instead of a million row updates). Staging ranges, then settling, then
   * applying more batches the ordinary way (or staging and settling again)
   * gives the tables the ordinary `apply` gives.
   *
   * `settle` is a list of steps that touch different rows, each complete in
   * itself (it clears the facts it settled): the runner runs them at once,
   * each in its own transaction. A step may read the staged ranges again
   * from `log` (see `staged-spans.ts`) instead of recording facts about them.
   */
  /**
   * Rows that depend on how the log came in batches, not only on the log (page anchors), shown
   * in `views`: `verify` and the tests do not compare them row for row with a replay, but ask
   * `problems` (in the build's schema) what is inconsistent in them. A replay whose read indexes
   * are not built yet defers them (its statements run with `forum.deferred` on, see
   * DEFERRED_SETTING), and `rebuild` makes them afresh, in the build's schema, once it has built
   * those indexes.
   */
  readonly derived?: {
    readonly views: readonly string[];
    problems(trx: Knex.Transaction): Promise<string[]>;
    rebuild(trx: Knex.Transaction): Promise<void>;
  };
  replay?: {
    stage(trx: Knex.Transaction, log: Knex.Raw, range: LogRange): Promise<void>;
    settle: readonly ((trx: Knex.Transaction, log: SqlLog) => Promise<void>)[];
  };
}

/** A `read` view defined by a query over a projection's tables (see `Projection.exposes`). */
export interface ExposedQuery {
  readonly select: string;
  readonly tables: readonly string[];
}

/** The tables behind an exposed view. */
export const tablesOf = (shown: string | ExposedQuery): readonly string[] => (typeof shown === 'string' ? [shown] : shown.tables);

/** Events per transaction (and checkpoint) of a staged replay (see `Projection.replay`). */
export const STAGE_RANGE_SIZE = 100_000;

/**
 * A replay's transactions: a replayed batch may be lost in a crash, its checkpoint going with it,
 * so it is replayed again; the set-wise statements of a staged replay sort and hash hundreds
 * of thousands of rows, in memory rather than in temporary files (the default is 4 MB); and they
 * read a range's events of a type through the index by type, which the planner prices as random
 * reads of a disk at the default cost (4): it would then check every event of the range instead
 * (a range's 11k posts out of 100k events: 60 to 130 ms instead of 25 to 55 ms).
 */
export const REPLAY_SETTINGS = "SET LOCAL synchronous_commit TO off; SET LOCAL work_mem TO '128MB'; SET LOCAL random_page_cost TO 1.1";

/**
 * Set in the transactions of a replay whose read indexes are not built yet: what a projection
 * keeps up through them (page anchors) waits for `derived.rebuild` instead.
 */
export const DEFERRED_SETTING = "SET LOCAL forum.deferred TO 'on'";

/** Stages a range of the log (see `Projection.replay`) in the transaction's schema. */
export async function stageRange(trx: Knex.Transaction, projection: Projection, log: SqlLog, range: LogRange): Promise<void> {
  await projection.replay!.stage(trx, logRelation(trx, log, range, projection.types, projection.opens), range);
}

/** Every statement of a projection's `indexes`, table after table. */
export function indexStatements(projection: Pick<Projection, 'indexes'>): string[] {
  return Object.values(projection.indexes ?? {}).flat();
}

/** Creates a projection's read indexes one after another, in the transaction's schema (a build's tail builds them at once instead). */
export async function createReadIndexes(trx: Knex.Transaction, projection: Pick<Projection, 'indexes'>): Promise<void> {
  for (const statement of indexStatements(projection)) await trx.raw(statement);
}

/** A range's events of `types` as a relation for a FROM clause, the personal data of `opened` opened (see `SqlLog.events`). */
export function logRelation(trx: Knex.Transaction, log: SqlLog, range: LogRange, types: readonly string[], opened?: readonly string[]): Knex.Raw {
  const { sql, bindings } = log.events(range, types, opened);
  return trx.raw(sql, bindings);
}

/**
 * Stages the log after `after` up to `until`, range by range (at most
 * `rangeSize` events each), each range in a transaction `inTransaction`
 * gives (the same one throughout, or one per range). Returns where staging
 * stopped: `until`, or before an event only the ordinary way reads.
 */
export async function stageUntil(
  log: SqlLog,
  projection: Projection,
  stretch: { after: LogPosition; until: LogPosition; rangeSize: number },
  inTransaction: (work: (trx: Knex.Transaction) => Promise<void>) => Promise<void>,
): Promise<LogPosition> {
  let after = stretch.after;
  for (let next; (next = await log.nextRange(after, { limit: stretch.rangeSize, types: projection.types, until: stretch.until })); after = next.range.upTo) {
    const { range } = next;
    await inTransaction((trx) => stageRange(trx, projection, log, range));
  }
  return after;
}

/** Settles a staged replay in one transaction, one step after another. */
export async function settleReplay(trx: Knex.Transaction, projection: Projection, log: SqlLog): Promise<void> {
  for (const step of projection.replay?.settle ?? []) await step(trx, log);
}

/** The log in SQL, when the event store has it in the database `db` works in (null: replays go event by event). */
export async function sqlLogIn(db: Knex, store: EventStore): Promise<SqlLog | null> {
  const log = store.sql;
  if (!log) return null;
  return (await log.sharedWith(async (sql) => (await db.raw<{ rows: Record<string, unknown>[] }>(sql)).rows)) ? log : null;
}

export const schemaOf = (projection: Pick<Projection, 'name' | 'version'>) => `${projection.name}_v${projection.version}`;
export const READ_SCHEMA = 'read';
export const CHECKPOINTS_CHANNEL = 'forum_checkpoints';
/** Runners LISTEN here for builds to pick up (a rebuild was requested, a build switched in). */
export const CONTROL_CHANNEL = 'forum_projection_control';

/** A projection of the forum's events whose `apply` is handed those of its `types`, typed as the contracts define them. */
export function defineProjection<const Type extends ForumEventType>(
  projection: Projection<ProjectedEvent<Type>> & { readonly types: readonly Type[] },
): Projection<ProjectedEvent<Type>> {
  return projection;
}

/** Applies the events of the projection's `types` among `events` (the others pass by), if there are any. */
export async function applyOwn(trx: Knex.Transaction, projection: Projection, events: readonly RecordedEvent[]): Promise<void> {
  const own = events.filter((event) => projection.types.includes(event.type));
  if (own.length > 0) await projection.apply(trx, own);
}
