import { describe, expect, it } from 'vitest';
import type { EventMetadata } from './define.ts';
import { eventDefinitions } from './index.ts';
import { currentSchemaVersion, UnknownSchemaVersionError, upcast, upcasters, upcastOnRead } from './upcast.ts';
import { ProfileUpdated, ProfileUpdatedV1 } from './user.ts';

const metadata = (schemaVersion: number): EventMetadata => ({ actorId: 'u-1', correlationId: 'c', causationId: null, requestId: null, schemaVersion });
const at = '2026-11-21T10:00:00.000Z';
const v1 = { type: 'ProfileUpdated', data: { userId: 'u-1', name: 'Ann', photoURL: 'ann.png', updatedAt: at }, metadata: metadata(1) };

describe('ProfileUpdated', () => {
  it('is written at v2, and v1 keeps its schema', () => {
    expect(eventDefinitions.ProfileUpdated.schemaVersion).toBe(2);
    expect(currentSchemaVersion('ProfileUpdated')).toBe(2);
    expect(ProfileUpdatedV1.schema.safeParse(v1.data).success).toBe(true);
  });
  it('v2 names at least one changed field', () => {
    expect(ProfileUpdated.schema.safeParse({ userId: 'u-1', changes: { photoURL: 'p' }, updatedAt: at }).success).toBe(true);
    expect(ProfileUpdated.schema.safeParse({ userId: 'u-1', changes: {}, updatedAt: at }).success).toBe(false);
  });
});

describe('upcast', () => {
  it('turns a stored v1 ProfileUpdated into v2 (both fields changed) and stamps version 2', () => {
    const read = upcast(v1);
    expect(read).toEqual({
      type: 'ProfileUpdated',
      data: { userId: 'u-1', changes: { name: 'Ann', photoURL: 'ann.png' }, updatedAt: at },
      metadata: metadata(2),
    });
    expect(ProfileUpdated.schema.safeParse(read.data).success).toBe(true);
  });
  it('keeps everything else of the event, and leaves the stored one as it was', () => {
    const stored = { ...v1, streamId: 'user-u-1', position: 7n };
    expect(upcast(stored)).toMatchObject({ streamId: 'user-u-1', position: 7n });
    expect(stored.data).toEqual(v1.data);
    expect(stored.metadata.schemaVersion).toBe(1);
  });
  it('passes a current event through untouched (the same object)', () => {
    const current = { type: 'ProfileUpdated', data: { userId: 'u-1', changes: { name: 'Ann' }, updatedAt: at }, metadata: metadata(2) };
    expect(upcast(current)).toBe(current);
    const registered = { type: 'UserRegistered', data: { userId: 'u-1' }, metadata: metadata(1) };
    expect(upcast(registered)).toBe(registered);
  });
  it('passes a type the forum does not define through untouched, whatever its version', () => {
    const foreign = { type: 'SomethingElse', data: { x: 1 }, metadata: metadata(5) };
    expect(upcast(foreign)).toBe(foreign);
  });
  it('throws UNKNOWN_SCHEMA_VERSION on a version newer than this build knows', () => {
    const future = { ...v1, metadata: metadata(99) };
    expect(() => upcast(future)).toThrowError(UnknownSchemaVersionError);
    expect(() => upcast(future)).toThrowError('ProfileUpdated has schemaVersion 99, this build reads up to 2: it was written by a newer version of the code');
    expect(() => upcast({ type: 'UserRegistered', data: {}, metadata: metadata(2) })).toThrowError(
      expect.objectContaining({ code: 'UNKNOWN_SCHEMA_VERSION', schemaVersion: 2, currentVersion: 1 }),
    );
  });
  it('every upcaster reads a version older than its type current one, and no step is registered twice', () => {
    const keys = upcasters.map((u) => `${u.type}@${u.from}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const u of upcasters) expect(u.from).toBeLessThan(currentSchemaVersion(u.type)!);
  });
  it('every older version of a defined type has a chain of upcasters to the current one', () => {
    for (const [type, definition] of Object.entries(eventDefinitions)) {
      for (let version = 1; version < definition.schemaVersion; version++) {
        expect(
          upcasters.some((u) => u.type === type && u.from === version),
          `${type}@${version}`,
        ).toBe(true);
      }
    }
  });
});

describe('upcastOnRead', () => {
  it('upcasts as upcast does', () => {
    expect(upcastOnRead(v1)).toEqual(upcast(v1));
  });
  it('delivers an event of a future version with its stored metadata, and throws when its data is read', () => {
    const read = upcastOnRead({ ...v1, metadata: metadata(99) });
    expect(read.type).toBe('ProfileUpdated');
    expect(read.metadata.schemaVersion).toBe(99);
    expect(() => read.data).toThrowError(UnknownSchemaVersionError);
    expect(() => ({ ...read })).toThrowError(UnknownSchemaVersionError);
  });
});
