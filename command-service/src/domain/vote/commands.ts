import { isStaffRole, type Vote } from '@forum/contracts';
import type { Identity } from '../actor.ts';
import { positionOf, type Accepted, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { postStreamOf, type PostState } from '../post/post.ts';
import { decide, type VoteCommand } from './decide.ts';
import { evolve, voteStreamOf } from './vote.ts';

export interface VoteAnswer extends Accepted {
  readonly vote: Vote;
}

/** The commands decided on a voter's vote on a post (one small stream, so unrelated voters never contend). */
export function createVoteCommands({ handle }: CommandHandler, cost: Costs) {
  /** Decides `command` (given the post) on the caller's vote stream; answers the vote it leaves. */
  const vote = (
    who: Identity,
    postId: string,
    command: (post: PostState, voterIsStaff: boolean) => VoteCommand,
    meta: CommandMeta,
    idempotency?: Idempotency,
  ) =>
    handle(
      { who, meta, idempotency, cost: cost('vote', who.userId), refusedWhileSuspended: true },
      {
        stream: voteStreamOf(postId, who.userId),
        given: { post: postStreamOf(postId) },
        decide: (current, { post, actor }) => decide(command(post, isStaffRole(actor.role)), current, meta),
        answer: (result, { read, events }): VoteAnswer => ({
          id: postId,
          ...(result && { position: positionOf(result) }),
          vote: events.reduce(evolve, read.state).current,
        }),
      },
    );

  return {
    /** PUT /api/posts/:id/vote. */
    setVote: (who: Identity, input: { postId: string; vote: Vote }, meta: CommandMeta, idempotency?: Idempotency) =>
      vote(
        who,
        input.postId,
        (post, voterIsStaff) => ({ type: 'SetVote', data: { postId: input.postId, userId: who.userId, vote: input.vote, post, voterIsStaff } }),
        meta,
        idempotency,
      ),

    /** PATCH /api/posts/:id/vote (the spec's call). */
    changeVote: (who: Identity, input: { postId: string; likeChange: -1 | 0 | 1; dislikeChange: -1 | 0 | 1 }, meta: CommandMeta, idempotency?: Idempotency) => {
      const { postId, likeChange, dislikeChange } = input;
      return vote(
        who,
        postId,
        (post, voterIsStaff) => ({ type: 'ChangeVote', data: { postId, userId: who.userId, likeChange, dislikeChange, post, voterIsStaff } }),
        meta,
        idempotency,
      );
    },
  };
}
