import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../types.ts';
import { event, sleep, stream, type ContractSubject } from './support.ts';

/** Subscriptions: woken by commits, every event once and in order under concurrent writers. */
export function subscriptionsContract({ store, factory }: ContractSubject) {
  describe('subscriptions', () => {
    it('is woken by a new event without waiting for its poll interval', async () => {
      const id = stream();
      const from = await store.head();
      const seen: RecordedEvent[] = [];
      let resolveSeen!: () => void;
      const gotIt = new Promise<void>((resolve) => (resolveSeen = resolve));
      const subscription = store.subscribe({
        after: from,
        onBatch: (events) => {
          seen.push(...events.filter((e) => e.streamId === id));
          if (seen.length > 0) resolveSeen();
          return Promise.resolve();
        },
      });
      try {
        await sleep(200); // the subscriber has caught up and sleeps
        const t0 = Date.now();
        await store.append([{ streamId: id, expectedVersion: 'no_stream', events: [event('Ping')] }]);
        await gotIt;
        expect(seen.map((e) => e.type)).toEqual(['Ping']);
        // The poll interval in these tests is 10 s and the subscriber began its wait before the append, so
        // without the commit's wake-up it would see the event after ~9.8 s. Half the interval tells the two
        // apart with room for a loaded machine, where another test's open transaction on the shared server
        // can hold the read horizon back for a second or more.
        expect(Date.now() - t0).toBeLessThan(5_000);
      } finally {
        await subscription.stop();
      }
    });

    // Every adapter takes the load; one with a commit hook also has its commits land out of position order
    it('sees every event of 8 concurrent writers x 2,000 appends exactly once, in per-stream order', { timeout: 180_000 }, async () => {
      const writers = 8;
      const appendsPerWriter = 2000;
      const runStreams = Array.from({ length: writers }, () => stream());
      const inRun = new Set(runStreams);
      const slowStore = await factory.create(
        factory.supportsCommitHook
          ? {
              // random short delays inside the writing transactions, so commits land out of position order
              beforeCommit: async () => {
                const r = Math.random();
                if (r < 0.3) await sleep(Math.floor(Math.random() * 3));
                else if (r < 0.32) await sleep(5 + Math.floor(Math.random() * 15));
              },
            }
          : {},
      );
      const from = await store.head();
      const seen = new Map<string, number[]>();
      const positions = new Set<string>();
      let total = 0;
      let duplicates = 0;
      let resolveAll!: () => void;
      const allSeen = new Promise<void>((resolve) => (resolveAll = resolve));
      const subscription = store.subscribe({
        after: from,
        batchSize: 250,
        onBatch: (events) => {
          for (const e of events) {
            if (!inRun.has(e.streamId)) continue;
            const key = e.position.globalPosition.toString();
            if (positions.has(key)) duplicates++;
            positions.add(key);
            const versions = seen.get(e.streamId) ?? [];
            versions.push(e.streamVersion);
            seen.set(e.streamId, versions);
            total++;
          }
          if (total >= writers * appendsPerWriter) resolveAll();
          return Promise.resolve();
        },
      });
      try {
        await Promise.all(
          runStreams.map(async (streamId) => {
            for (let i = 0; i < appendsPerWriter; i++) {
              await slowStore.append([{ streamId, expectedVersion: i === 0 ? 'no_stream' : i, events: [event('Tick', { i })] }]);
            }
          }),
        );
        await Promise.race([allSeen, sleep(60_000)]);
        expect(duplicates).toBe(0);
        expect(total).toBe(writers * appendsPerWriter);
        for (const streamId of runStreams) {
          expect(seen.get(streamId)).toEqual(Array.from({ length: appendsPerWriter }, (_, i) => i + 1));
        }
      } finally {
        await subscription.stop();
        await slowStore.close();
      }
    });
  });
}
