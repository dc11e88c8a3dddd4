import { FIXED_NOW } from '@forum/platform/testing';
import type { CommandMeta } from './command.ts';

/** A command's metadata for a decider's test: a test actor at the fixed clock, with what the test names in `overrides`. */
export function testCommandMeta(overrides: Partial<CommandMeta> = {}): CommandMeta {
  return { actorId: 'test', now: new Date(FIXED_NOW), correlationId: 'c', causationId: null, requestId: null, ...overrides };
}

/** The state a stream type folds `events` into, from its initial state: the "given" of a decider's test. */
export const stateAfter =
  <State, Event>(evolve: (state: State, event: Event) => State, initial: State) =>
  (events: Event[]): State =>
    events.reduce(evolve, initial);
