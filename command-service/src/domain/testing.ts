import { FIXED_NOW } from '@forum/platform/testing';
import type { WrittenComment } from './comment/comment.ts';
import type { CommandMeta } from './command.ts';
import type { LivePost } from './post/post.ts';

/** A command's metadata for a decider's test: a test actor at the fixed clock, with what the test names in `overrides`. */
export function testCommandMeta(overrides: Partial<CommandMeta> = {}): CommandMeta {
  return { actorId: 'test', now: new Date(FIXED_NOW), correlationId: 'c', causationId: null, requestId: null, ...overrides };
}

/** The state a stream type folds `events` into, from its initial state: the "given" of a decider's test. */
export const stateAfter =
  <State, Event>(evolve: (state: State, event: Event) => State, initial: State) =>
  (events: Event[]): State =>
    events.reduce(evolve, initial);

/** A live post by `authorId` as created at the fixed clock (its first revision), with what the test names in `more`. */
export const livePost = (authorId: string, more: Partial<Omit<LivePost, 'status'>> = {}): LivePost => ({
  status: 'created',
  authorId,
  title: 'A post',
  description: 'About it',
  tags: [],
  revision: { number: 1, at: Date.parse(FIXED_NOW), by: authorId },
  hidden: null,
  locked: false,
  ...more,
});

/** A comment by `authorId` on `postId` as added at the fixed clock (its first revision). */
export const addedComment = (postId: string, authorId: string, text: string): WrittenComment => ({
  status: 'added',
  postId,
  authorId,
  text,
  revision: { number: 1, at: Date.parse(FIXED_NOW), by: authorId },
  hidden: null,
});
