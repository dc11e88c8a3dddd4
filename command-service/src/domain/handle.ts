import { positionToken, type LogPosition } from '@forum/contracts';
import type { AppendResult, EventStore, StreamAppend } from '@forum/eventstore';
import { WrongExpectedVersionError } from '@forum/eventstore';
import { ErrorCode } from '@forum/contracts';
import { Conflict, RuleBroken } from './errors.ts';
import { LRUCache } from 'lru-cache';
import type { Cost, Taken } from './limits.ts';

/** The caller's Idempotency-Key (scoped to the caller and the call) and a digest of its request. */
export interface Idempotency {
  readonly key: string;
  readonly fingerprint: string;
}

export class IdempotencyKeyReusedError extends RuleBroken {
  constructor() {
    super(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'This Idempotency-Key was already used for a different request');
  }
}

interface Stored<Answer> {
  readonly answer: Answer;
  readonly fingerprint: string;
}

export interface Decision<Answer> {
  readonly appends: readonly StreamAppend[];
  /** `result` is null when the decision appends nothing (the command changed nothing). */
  readonly answer: (result: AppendResult | null) => Answer;
}

export interface Executed<Answer> {
  readonly answer: Answer;
  /** True when an earlier request with the same idempotency key answered this. */
  readonly duplicate: boolean;
}

const MAX_ATTEMPTS = 5;

/**
 * Load → decide → append with expected versions. On a version conflict
 * another writer got there first: load again and decide again, a bounded
 * number of times. With an idempotency key, a key already used returns its
 * first answer without deciding.
 *
 * `cost` (a write limit) is taken once, when a decision first has events to append: a refused
 * input, a rule that says no, a decision that changes nothing and a replay cost nothing. With an
 * idempotency key it is taken once the key is held (inside the append), so retries of one
 * command sent at once count once; whatever ends without this command's own append gives it back.
 */
export async function execute<Answer>(
  store: EventStore,
  decideOnce: (attempt: number) => Promise<Decision<Answer>>,
  idempotency?: Idempotency,
  cost?: Cost,
): Promise<Executed<Answer>> {
  const replay = (stored: Stored<Answer>): Executed<Answer> => {
    if (stored.fingerprint !== idempotency!.fingerprint) throw new IdempotencyKeyReusedError();
    return { answer: stored.answer, duplicate: true };
  };
  if (idempotency) {
    const earlier = await store.idempotentAnswer<Stored<Answer>>(idempotency.key);
    if (earlier !== null) return replay(earlier);
  }
  let taken: Promise<Taken> | undefined;
  const take = async () => {
    if (cost) await (taken ??= cost());
  };
  let appended = false;
  try {
    for (let attempt = 1; ; attempt++) {
      const decision = await decideOnce(attempt);
      if (decision.appends.every((append) => append.events.length === 0)) return { answer: decision.answer(null), duplicate: false };
      try {
        if (idempotency) {
          const outcome = await store.appendIdempotent<Stored<Answer>>(decision.appends, {
            key: idempotency.key,
            answer: (result) => ({ answer: decision.answer(result), fingerprint: idempotency.fingerprint }),
            beforeAppend: take,
          });
          if (outcome.duplicate) return replay(outcome.answer);
          appended = true;
          return { answer: outcome.answer.answer, duplicate: false };
        }
        await take();
        const result = await store.append(decision.appends);
        appended = true;
        return { answer: decision.answer(result), duplicate: false };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw new Conflict('Too many concurrent changes; try again');
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  } finally {
    // a refused take counted nothing (its promise rejects): nothing to give back
    if (taken && !appended) await (await taken.catch(() => null))?.giveBack();
  }
}

interface Folded {
  readonly evolve: unknown;
  readonly state: unknown;
  readonly version: number;
  readonly position: LogPosition | null;
}

/** Streams folded lately, per store (an LRU: a Map used as one scanned its deleted entries at each eviction). */
const folded = new WeakMap<EventStore, LRUCache<string, Folded>>();
/** How many folded streams a store keeps (users, posts and votes being decided on now). */
export const FOLDED_STREAMS_KEPT = 20_000;

/**
 * A stream folded into its state, with the version to expect when appending and its last event's
 * position. A stream folded lately is not read again from its start: only the events after the
 * version kept are read and folded on (events never change and versions have no gaps, so this is
 * the state a full read gives; another writer's append is among them, and a conflict's retry
 * reads it too). `evolve` must not change the state it is given.
 */
export async function load<State, Event>(
  store: EventStore,
  streamId: string,
  evolve: (state: State, event: Event) => State,
  initial: State,
): Promise<{ state: State; version: number; position: LogPosition | null }> {
  let streams = folded.get(store);
  if (!streams) folded.set(store, (streams = new LRUCache({ max: FOLDED_STREAMS_KEPT })));
  const kept = streams.get(streamId);
  const from = kept && kept.evolve === evolve ? kept : { state: initial, version: 0, position: null };
  const { version, events } = await store.readStream(streamId, { afterVersion: from.version });
  let state = from.state as State;
  for (const event of events) state = evolve(state, { type: event.type, data: event.data } as Event);
  const loaded = { state, version, position: events.at(-1)?.position ?? from.position };
  streams.set(streamId, { evolve, ...loaded });
  return loaded;
}

/**
 * `load` for a stream the caller has just named with a random id of its own (a new comment, a new
 * post): the first attempt does not read it and takes it as new. Its append expects no stream, so
 * an id that exists after all conflicts, and the next attempt (`attempt` > 1) reads it.
 */
export function loadAssumingNew<State, Event>(
  attempt: number,
  store: EventStore,
  streamId: string,
  evolve: (state: State, event: Event) => State,
  initial: State,
): Promise<{ state: State; version: number; position: LogPosition | null }> {
  return attempt === 1 ? Promise.resolve({ state: initial, version: 0, position: null }) : load(store, streamId, evolve, initial);
}

export const expectedVersionOf = (version: number) => (version === 0 ? ('no_stream' as const) : version);

export const positionOf = (result: AppendResult) => positionToken(result.lastPosition);
