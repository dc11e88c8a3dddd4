import { createHash, randomUUID } from 'node:crypto';
import { ErrorCode } from '@forum/contracts';
import { ConflictError } from '@forum/platform';

/**
 * Idempotency keys on KurrentDB. Each key has a stream of its own, `forum-idempotency-<sha256 of
 * the key>`, holding bookkeeping events whose types begin with `$` (so every read of `$all` leaves
 * them out on the server, filters.ts):
 *
 * - `$IdempotencyClaimed {owner, until}`: a caller holds the key (appended at the stream's next
 *   revision: of two callers, one wins, the other waits for the answer). A claim is a lease: a
 *   claim whose owner died is taken over once `until` has passed.
 * - `$IdempotencyCommitted {owner}`: written in the same atomic `multiStreamAppend` as the
 *   command's events, expecting the claim's revision, so the events are written once per key even
 *   when a lease was taken over meanwhile (the late writer's expectation fails, its events with it).
 * - `$IdempotencyAnswered {answer}`: the answer a retry gets back.
 * - `$IdempotencyReleased`: the claim's call failed (its `beforeAppend` threw or its append met a
 *   conflict); nothing was written and the key is free again.
 */
export const CLAIMED = '$IdempotencyClaimed';
export const COMMITTED = '$IdempotencyCommitted';
export const ANSWERED = '$IdempotencyAnswered';
export const RELEASED = '$IdempotencyReleased';

export const keyStream = (key: string) => `forum-idempotency-${createHash('sha256').update(key).digest('hex')}`;

export const newOwner = () => randomUUID();

/** What a key's stream says, from its events in order. */
export type KeyState =
  | { readonly state: 'free'; readonly revision: bigint | null }
  | { readonly state: 'claimed'; readonly revision: bigint; readonly until: number }
  | { readonly state: 'committed'; readonly revision: bigint }
  | { readonly state: 'answered'; readonly revision: bigint; readonly answer: unknown };

/** The state of a key from its stream's events (type, data, revision), oldest first. */
export function keyState(events: readonly { type: string; data: unknown; revision: bigint }[]): KeyState {
  let state: KeyState = { state: 'free', revision: null };
  for (const event of events) {
    const data = (event.data ?? {}) as { until?: number; answer?: unknown };
    if (event.type === CLAIMED) state = { state: 'claimed', revision: event.revision, until: Number(data.until ?? 0) };
    else if (event.type === COMMITTED) state = { state: 'committed', revision: event.revision };
    else if (event.type === ANSWERED) state = { state: 'answered', revision: event.revision, answer: data.answer ?? null };
    else if (event.type === RELEASED) state = { state: 'free', revision: event.revision };
  }
  return state;
}

/**
 * A caller's key whose events are written but whose answer is missing: its writer died between the
 * two (see docs/kurrentdb.md). The client is told so (409 IDEMPOTENCY_KEY_IN_DOUBT): what it asked
 * for was done, and a read shows it; the key's answer cannot be given again.
 */
export class IdempotencyKeyInDoubtError extends ConflictError {
  constructor(readonly key: string) {
    super('This request was carried out, but its answer was lost: read the current state instead of sending it again', ErrorCode.IDEMPOTENCY_KEY_IN_DOUBT);
    this.name = 'IdempotencyKeyInDoubtError';
  }
}
