import { afterAll, beforeAll, describe } from 'vitest';
import { appendsContract } from './contract/appends.ts';
import { readsContract } from './contract/reads.ts';
import { subscriptionsContract } from './contract/subscriptions.ts';
import type { EventStoreFactory } from './contract/support.ts';
import type { EventStore } from './types.ts';

export type { EventStoreFactory };

/**
 * What every event-store adapter must do. An adapter's test calls this with a
 * factory; `beforeCommit` runs inside each writing transaction before it
 * commits (an adapter without client-side transactions may ignore it, and then
 * says so with `supportsCommitHook: false`). The themes share one store.
 */
export function eventStoreContract(adapter: string, factory: EventStoreFactory) {
  describe(`event store contract: ${adapter}`, () => {
    let opened: EventStore | undefined;
    beforeAll(async () => {
      opened = await factory.create();
    });
    afterAll(async () => {
      await opened?.close();
      await factory.dispose?.();
    });
    // The themes declare their tests before the store opens; they reach it through this
    const store = new Proxy({} as EventStore, {
      get(_, key) {
        if (!opened) throw new Error('the store under test opens before the first test');
        const store = opened;
        const value: unknown = Reflect.get(store, key);
        return typeof value === 'function' ? (...args: unknown[]): unknown => Reflect.apply(value, store, args) : value;
      },
    });
    const subject = { store, factory };
    appendsContract(subject);
    readsContract(subject);
    subscriptionsContract(subject);
  });
}
