import type { z } from 'zod';
import type { EventMetadata } from './define.ts';
import { eventDefinitions } from './index.ts';
import { type ProfileUpdated, ProfileUpdatedV1 } from './user.ts';

/**
 * Schema evolution. Stored events are never rewritten: an event keeps the
 * shape and `metadata.schemaVersion` it was appended with, and readers (the
 * command side's folds and the projections alike) see it in the current shape
 * through these upcasters, applied by the event store adapter on read.
 *
 * To evolve an event: bump its version in its `defineEvent`, keep the old
 * schema next to it (`XxxV1`), and register an upcaster from each old version
 * to the next one here.
 */
export interface Upcaster<From, To> {
  readonly type: string;
  /** The version this upcaster reads; it returns data of version `from + 1`. */
  readonly from: number;
  readonly upcast: (data: From) => To;
  /**
   * The same step in SQL, for readers that go through the log set-wise in the
   * database (a rebuild's staged replay): given a jsonb expression of the
   * data at version `from`, a jsonb expression of it at `from + 1`. A test
   * holds the two forms to the same result.
   */
  readonly sql: (data: string) => string;
}

function upcaster<FromSchema extends z.ZodType, To>(
  definition: { type: string; schemaVersion: number; schema: FromSchema },
  upcast: (data: z.infer<FromSchema>) => To,
  sql: (data: string) => string,
): Upcaster<z.infer<FromSchema>, To> {
  return { type: definition.type, from: definition.schemaVersion, upcast, sql };
}

/** Every upcaster of the forum, by event type and the version it reads. */
export const upcasters: readonly Upcaster<never, unknown>[] = [
  // v1 replaced both fields; v2 names the changed ones, and a v1 update changed (set) both
  upcaster(
    ProfileUpdatedV1,
    ({ userId, name, photoURL, updatedAt }): z.infer<typeof ProfileUpdated.schema> => ({ userId, changes: { name, photoURL }, updatedAt }),
    (data) =>
      `jsonb_build_object('userId', ${data}->'userId', 'changes', jsonb_build_object('name', ${data}->'name', 'photoURL', ${data}->'photoURL'), 'updatedAt', ${data}->'updatedAt')`,
  ),
];

const byTypeAndVersion = new Map(upcasters.map((u) => [`${u.type}@${u.from}`, u as Upcaster<unknown, unknown>]));

/** An event was stored by a newer build than this one, or by an older one whose upcaster is missing. */
export class UnknownSchemaVersionError extends Error {
  readonly code = 'UNKNOWN_SCHEMA_VERSION';
  constructor(
    readonly eventType: string,
    readonly schemaVersion: number,
    readonly currentVersion: number,
    reason: string,
  ) {
    super(`${eventType} has schemaVersion ${schemaVersion}, this build reads up to ${currentVersion}: ${reason}`);
    this.name = 'UnknownSchemaVersionError';
  }
}

/** The version this build writes and reads an event type in, or undefined for a type the forum does not define. */
export function currentSchemaVersion(type: string): number | undefined {
  return (eventDefinitions as Record<string, { schemaVersion: number } | undefined>)[type]?.schemaVersion;
}

/**
 * The event in its current shape: the upcasters chained from its stored
 * version to the current one, and the metadata stamped with the current
 * version. Events already current, and types the forum does not define, pass
 * through untouched (the same object). A version newer than this build knows
 * throws, rather than being mis-read.
 */
export function upcast<E extends { type: string; data: unknown; metadata: EventMetadata }>(event: E): E {
  const current = currentSchemaVersion(event.type);
  const stored = event.metadata.schemaVersion;
  if (current === undefined || stored === current) return event;
  if (stored > current) {
    throw new UnknownSchemaVersionError(event.type, stored, current, 'it was written by a newer version of the code; deploy that version before reading it');
  }
  let data = event.data;
  for (let version = stored; version < current; version++) {
    const step = byTypeAndVersion.get(`${event.type}@${version}`);
    if (!step) throw new UnknownSchemaVersionError(event.type, stored, current, `no upcaster from version ${version}`);
    data = step.upcast(data);
  }
  return { ...event, data, metadata: { ...event.metadata, schemaVersion: current } };
}

/**
 * `upcast` in SQL: the expression that gives, from the jsonb expression
 * `data` of a `type` event stored at `version`, its data in the current shape
 * (`data` itself when current). Null for a version SQL cannot read (newer
 * than this build, or no upcaster from it): a set-wise reader must leave such
 * an event to `upcastOnRead`, which fails on it the way readers expect.
 */
export function upcastSql(type: string, version: number, data: string): string | null {
  const current = currentSchemaVersion(type);
  if (current === undefined || version === current) return data;
  if (version > current) return null;
  let expression = data;
  for (let from = version; from < current; from++) {
    const step = byTypeAndVersion.get(`${type}@${from}`);
    if (!step) return null;
    expression = step.sql(expression);
  }
  return expression;
}

/** Every stored version of `type` that SQL reads in the current shape (the current one and those with upcasters from them). */
export function sqlReadableVersions(type: string): number[] {
  const current = currentSchemaVersion(type);
  if (current === undefined) return [];
  return Array.from({ length: current }, (_, i) => i + 1).filter((version) => upcastSql(type, version, 'data') !== null);
}

/**
 * `upcast` for an event store's reads. An event this build cannot read (a
 * newer version) is still delivered, with its stored metadata, but reading its
 * `data` throws the UnknownSchemaVersionError. A reader that does not look at
 * it (a projection that does not handle its type) passes it by; one that does
 * fails on that very event: a command on its stream fails, and a projection
 * halts on it as on any poison event, at its position, instead of every
 * reader of the log stopping at the read.
 */
export function upcastOnRead<E extends { type: string; data: unknown; metadata: EventMetadata }>(event: E): E {
  try {
    return upcast(event);
  } catch (error) {
    if (!(error instanceof UnknownSchemaVersionError)) throw error;
    return Object.defineProperty({ ...event }, 'data', {
      enumerable: true,
      get() {
        throw error;
      },
    });
  }
}
