import type { EventStore } from '@forum/eventstore';
import { LRUCache } from 'lru-cache';
import type { Read, Stream } from './stream.ts';

interface Folded {
  readonly evolve: unknown;
  readonly state: unknown;
  readonly version: number;
  readonly position: Read<unknown>['position'];
}

/** Streams folded lately, per store (an LRU: a Map used as one scanned its deleted entries at each eviction). */
const folded = new WeakMap<EventStore, LRUCache<string, Folded>>();
/** How many folded streams a store keeps (users, posts and votes being decided on now). */
const FOLDED_STREAMS_KEPT = 20_000;

/**
 * A stream folded into its state, with the version to expect when appending and its last event's
 * position. A stream folded lately is not read again from its start: only the events after the
 * version kept are read and folded on (events never change and versions have no gaps, so this is
 * the state a full read gives; another writer's append is among them, and a conflict's retry
 * reads it too). `evolve` must not change the state it is given.
 */
export async function load<State, Event>(store: EventStore, stream: Stream<State, Event>): Promise<Read<State>> {
  const { id: streamId, evolve } = stream;
  let streams = folded.get(store);
  if (!streams) folded.set(store, (streams = new LRUCache({ max: FOLDED_STREAMS_KEPT })));
  const kept = streams.get(streamId);
  const from = kept && kept.evolve === evolve ? kept : { state: stream.initialState, version: 0, position: null };
  const { version, events } = await store.readStream(streamId, { afterVersion: from.version });
  let state = from.state as State;
  for (const event of events) state = evolve(state, { type: event.type, data: event.data } as Event);
  const position = events.at(-1)?.position ?? from.position;
  streams.set(streamId, { evolve, state, version, position });
  return { streamId, state, version, position };
}

/**
 * `load` for a stream the caller has just named with a random id of its own (a new comment, a new
 * post): the first attempt does not read it and takes it as new. Its append expects no stream, so
 * an id that exists after all conflicts, and the next attempt (`attempt` > 1) reads it.
 */
export function loadAssumingNew<State, Event>(attempt: number, store: EventStore, stream: Stream<State, Event>): Promise<Read<State>> {
  return attempt === 1 ? Promise.resolve({ streamId: stream.id, state: stream.initialState, version: 0, position: null }) : load(store, stream);
}
