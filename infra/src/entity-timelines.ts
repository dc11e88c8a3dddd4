import { evolvePost, evolveUser, initialPostState, initialUserState } from '@forum/command-service';
import { compareLogPositions, postStream, userStream, type HistoryKind, type LogPosition, type PostEvent, type UserEvent } from '@forum/contracts';
import type { EventStore } from '@forum/eventstore';

/**
 * A user's or a post's state as it was, folded by the write side's own `evolve` from its stream
 * (one fold: the command side decides on the same state): `forumctl asof` and the console's
 * history (query-service's EntityTimelines, which this fills).
 */

/** A step of an entity's own stream: the event's position and time, and the state after it (plain JSON). */
export interface EntityStep {
  readonly position: LogPosition;
  readonly at: Date;
  readonly version: number;
  readonly type: string;
  readonly state: unknown;
}

/** An entity's state before its first event, and after each of its stream's events. */
export interface EntityTimeline {
  readonly initial: unknown;
  readonly steps: readonly EntityStep[];
}

/**
 * Folds a user's or a post's stream with the write side's `evolve`. Personal data reads as the
 * history shows it: erased fields "[erased]" (`erasedAs: 'marked'`), so a state from before an
 * erasure holds none of it.
 */
export async function entityTimeline(store: Pick<EventStore, 'readStream'>, kind: HistoryKind, id: string): Promise<EntityTimeline> {
  const { events } = await store.readStream(kind === 'post' ? postStream(id) : userStream(id), { erasedAs: 'marked' });
  const steps: EntityStep[] = [];
  if (kind === 'post') {
    let state = initialPostState;
    for (const event of events) {
      state = evolvePost(state, { type: event.type, data: event.data } as PostEvent);
      steps.push({ position: event.position, at: event.recordedAt, version: event.streamVersion, type: event.type, state: plain(state) });
    }
    return { initial: plain(initialPostState), steps };
  }
  let state = initialUserState;
  for (const event of events) {
    state = evolveUser(state, { type: event.type, data: event.data } as UserEvent);
    steps.push({ position: event.position, at: event.recordedAt, version: event.streamVersion, type: event.type, state: plain(state) });
  }
  return { initial: plain(initialUserState), steps };
}

/** The last step at or before `position` (null: the entity had no event yet). */
export const stepAsOf = (timeline: EntityTimeline, position: LogPosition): EntityStep | null =>
  timeline.steps.findLast((step) => compareLogPositions(step.position, position) <= 0) ?? null;

/** A state as JSON shows it: sets as sorted arrays, maps as objects. */
function plain(value: unknown): unknown {
  if (value instanceof Set) return [...(value as Set<unknown>)].map(plain).sort();
  if (value instanceof Map) return Object.fromEntries([...(value as Map<string, unknown>)].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
