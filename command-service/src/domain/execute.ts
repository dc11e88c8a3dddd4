import { ErrorCode } from '@forum/contracts';
import type { AppendResult, EventStore, StreamAppend } from '@forum/eventstore';
import { WrongExpectedVersionError } from '@forum/eventstore';
import { Conflict, RuleBroken } from './errors.ts';
import type { Cost, Taken } from './limits.ts';

/** The caller's Idempotency-Key (scoped to the caller and the call) and a digest of its request. */
export interface Idempotency {
  readonly key: string;
  readonly fingerprint: string;
}

class IdempotencyKeyReusedError extends RuleBroken {
  constructor() {
    super(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'This Idempotency-Key was already used for a different request');
  }
}

interface Stored<Answer> {
  readonly answer: Answer;
  readonly fingerprint: string;
}

interface Decision<Answer> {
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
 * first answer without deciding, and so does a decision that appends nothing once the key is
 * found used (a request with the same key appended between the look and the decision).
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
  const earlierAnswer = async () => {
    const earlier = idempotency ? await store.idempotentAnswer<Stored<Answer>>(idempotency.key) : null;
    return earlier === null ? null : replay(earlier);
  };
  const answered = await earlierAnswer();
  if (answered) return answered;
  let taken: Promise<Taken> | undefined;
  const take = async () => {
    if (cost) await (taken ??= cost());
  };
  let appended = false;
  try {
    for (let attempt = 1; ; attempt++) {
      const decision = await decideOnce(attempt);
      // nothing to append: a request with the same key may have made the change meanwhile (it was
      // under way when this one looked), and then its answer is this one's
      if (decision.appends.every((append) => append.events.length === 0)) return (await earlierAnswer()) ?? { answer: decision.answer(null), duplicate: false };
      try {
        if (idempotency) {
          const outcome = await store.appendIdempotent<Stored<Answer>>(decision.appends, {
            key: idempotency.key,
            answer: (result) => ({ answer: decision.answer(result), fingerprint: idempotency.fingerprint }),
            // a command's answer holds the result only as `position`, its last event's (positionOf)
            positionAt: ['answer', 'position'],
            // a cost is taken once the key is held; without one the store may write the key with the events
            ...(cost && { beforeAppend: take }),
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
