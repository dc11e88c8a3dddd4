import { randomUUID } from 'node:crypto';
import { SEALED_KEY } from '@forum/contracts';
import { eventStoreContract } from '@forum/eventstore/contract';
import { createTestDatabase, testEventMetadata } from '@forum/platform/testing';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { afterAll, describe, expect, it } from 'vitest';
import { createKurrentDbEventStore } from './store.ts';
import { kurrentDbForTests } from './testing/server.ts';

/**
 * The event-store contract against a real KurrentDB (25.1 or later): EVENTSTORE_URL, or a container
 * through testcontainers; skipped, saying what is missing, where neither is there.
 */
const server = await kurrentDbForTests();
if (server.url === null) console.warn(`KurrentDB event store tests skipped: ${server.missing}`);
const url = server.url;

describe.skipIf(url === null)(url === null ? `KurrentDB event store (skipped: ${server.url === null ? server.missing : ''})` : 'KurrentDB event store', () => {
  afterAll(async () => {
    if (server.url !== null) await server.stop();
  });

  eventStoreContract('KurrentDB', {
    supportsCommitHook: false,
    create: () => createKurrentDbEventStore({ connectionString: url! }),
  });

  describe('personal data, keys in PostgreSQL', () => {
    const keys = createTestDatabase('kdb_keys');
    afterAll(async () => (await keys).drop());

    it('is sealed in KurrentDB, opened for readers, and reads as erased once the member is erased', async () => {
      const store = await createKurrentDbEventStore({ connectionString: url!, keystoreUrl: (await keys).url });
      const raw = KurrentDBClient.connectionString(url!);
      try {
        const userId = randomUUID();
        const streamId = `user-${userId}`;
        const registered = { userId, email: 'ann@example.com', name: 'Ann', photoURL: 'ann.png', registeredAt: new Date().toISOString() };
        await store.append([
          { streamId, expectedVersion: 'no_stream', events: [{ type: 'UserRegistered', data: registered, metadata: testEventMetadata({ actorId: userId }) }] },
        ]);

        let data: Record<string, unknown> = {};
        for await (const stored of raw.readStream(streamId)) data = stored.event!.data as Record<string, unknown>;
        expect(data[SEALED_KEY]).toBeDefined();
        expect(JSON.stringify(data)).not.toContain('ann@example.com');
        expect((await store.readStream(streamId)).events[0]!.data).toEqual(registered);

        await store.append([
          {
            streamId,
            expectedVersion: 1,
            events: [
              {
                type: 'AccountErased',
                data: { userId, content: 'kept', erasedAt: new Date().toISOString() },
                metadata: testEventMetadata({ actorId: userId }),
              },
            ],
          },
        ]);
        const after = await store.readStream(streamId, { erasedAs: 'marked' });
        expect(after.events[0]!.data).toMatchObject({ email: '[erased]', name: '[erased]' });
      } finally {
        await raw.dispose();
        await store.close();
      }
    });
  });
});
