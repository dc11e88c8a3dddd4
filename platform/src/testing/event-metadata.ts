import type { EventMetadata } from '@forum/contracts';

/** An event's metadata for a test: a test actor at schema version 1, with what the test names in `overrides`. */
export function testEventMetadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return { actorId: 'test', correlationId: 'c', causationId: null, requestId: null, schemaVersion: 1, ...overrides };
}
