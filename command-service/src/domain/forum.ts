import { ErrorCode, MEMBERSHIP_PRICE, positionToken, type UserEvent } from '@forum/contracts';
import { Forbidden, RuleBroken, Unavailable } from './errors.ts';
import type { PaymentProvider } from '../payment/port.ts';
import type { UserDirectory } from '../lookup/users.ts';
import type { EventStore, StreamAppend } from '@forum/eventstore';
import { acceptedAs, appendTo, authorOf, createActors, registered, type Accepted, type Identity } from './actor.ts';
import type { CommandMeta } from './command.ts';
import { createAccountCommands } from './account/commands.ts';
import { createAdminCommands } from './admin/commands.ts';
import { createCommunityCommands } from './community/commands.ts';
import { execute, load, loadAssumingNew, positionOf, type Executed, type Idempotency } from './handle.ts';
import { unlimited, type Costs, type WriteLimits } from './limits.ts';
import { decide as decidePost } from './post/decide.ts';
import { evolve as evolvePost, initialPostState, postStream } from './post/post.ts';
import { decide as decideTag } from './tag/decide.ts';
import { evolve as evolveTags, initialTagsState, TAGS_STREAM } from './tag/tag.ts';
import { decide as decideUser, type GrantAdmin } from './user/decide.ts';
import { evolve as evolveUser, initialUserState, userStream } from './user/user.ts';

export interface ForumCommandsOptions {
  /** Emails that are admins from their first sign-in (lower case). */
  readonly adminEmails: readonly string[];
  /** Needed only by the membership purchase (tools like forumctl run without one). */
  readonly payment?: PaymentProvider;
  /** A membership purchase with no outcome after this long is resumed by the next request (crash recovery). */
  readonly purchaseStaleAfterMs?: number;
  /** The members' write limits (and the Contact page's); none: unlimited (tools, the demo data). */
  readonly limits?: WriteLimits;
  /** Finds what an erasure takes with it when the member chooses so (without one, their text is erased but their posts stay, by 'Deleted user'). */
  readonly directory?: Pick<UserDirectory, 'contentOf'>;
}

export class PaymentFailedError extends RuleBroken {
  constructor(reason: string) {
    super(ErrorCode.PAYMENT_FAILED, 'Payment failed. Please try again.', { reason });
  }
}

/**
 * The forum's command side: each method loads the streams a rule needs,
 * decides, and appends. The actor's own stream comes first: a subject the
 * forum has not seen yet is registered in the same atomic append.
 */
export function createForumCommands(store: EventStore, options: ForumCommandsOptions) {
  const staleAfterMs = options.purchaseStaleAfterMs ?? 5 * 60_000;
  const actors = createActors(store, options.adminEmails);
  const limits = options.limits ?? unlimited;
  const cost: Costs = (kind, key) => () => limits.take(kind, key);

  return {
    ...createCommunityCommands(store, actors, cost),
    ...createAdminCommands(store, actors, cost),
    ...createAccountCommands(store, actors, options.directory),
    /**
     * Records a subject's first authenticated request. For a known subject it
     * appends nothing and answers the position of the record as it stands, so a
     * caller that lost a race to register still knows what to wait for.
     */
    registerUser(who: Identity, meta: CommandMeta): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const actor = await actors.load(who, meta);
        return {
          appends: actors.append(who, actor, [], meta),
          answer: (result) => ({ id: who.userId, position: result ? positionOf(result) : positionToken(actor.position!) }),
        };
      });
    },

    updateProfile(who: Identity, input: { displayName?: string; photoURL?: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const actor = await actors.load(who, meta);
          const events = decideUser({ type: 'UpdateProfile', data: input }, actor.state, meta);
          return { appends: actors.append(who, actor, events, meta), answer: acceptedAs(who.userId) };
        },
        idempotency,
        cost('profile', who.userId),
      );
    },

    grantAdmin(userId: string, reason: GrantAdmin['data']['reason'], meta: CommandMeta): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const user = await load(store, userStream(userId), evolveUser, initialUserState);
        const events = decideUser({ type: 'GrantAdmin', data: { reason } }, user.state, meta);
        return {
          appends: appendTo(userStream(userId), user, events, meta),
          answer: acceptedAs(userId),
        };
      });
    },

    createPost(
      who: Identity,
      input: { postId: string; title: string; description: string; tags: readonly string[] },
      meta: CommandMeta,
      idempotency?: Idempotency,
    ): Promise<Executed<Accepted>> {
      return execute(
        store,
        async (attempt) => {
          const [actor, post, tags] = await Promise.all([
            actors.load(who, meta),
            // the post's id is this request's own: nothing to read (see loadAssumingNew)
            loadAssumingNew(attempt, store, postStream(input.postId), evolvePost, initialPostState),
            load(store, TAGS_STREAM, evolveTags, initialTagsState),
          ]);
          const authored = decideUser({ type: 'AuthorPost', data: { postId: input.postId } }, actor.state, meta);
          const events = decidePost(
            {
              type: 'CreatePost',
              data: { ...input, author: authorOf(registered(actor.state)), knownTags: tags.state },
            },
            post.state,
            meta,
          );
          return {
            appends: [
              // the author's stream, at the version read: concurrent creates of one author conflict here
              ...actors.append(who, actor, authored, meta),
              ...appendTo(postStream(input.postId), post, events, meta),
            ],
            answer: acceptedAs(input.postId),
          };
        },
        idempotency,
        cost('post', who.userId),
      );
    },

    /** DELETE /api/my-posts/:id: by the author or an admin; frees the author's slot in the same append. */
    deletePost(who: Identity, postId: string, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const [actor, post] = await Promise.all([actors.load(who, meta), load(store, postStream(postId), evolvePost, initialPostState)]);
          const events = decidePost(
            { type: 'DeletePost', data: { postId, actorId: who.userId, actorIsAdmin: registered(actor.state).role === 'admin' } },
            post.state,
            meta,
          );
          const authorId = post.state.status === 'none' ? who.userId : post.state.authorId;
          const author = authorId === who.userId ? actor : { ...(await load(store, userStream(authorId), evolveUser, initialUserState)), registration: [] };
          const freed = decideUser({ type: 'RemoveAuthoredPost', data: { postId } }, author.state, meta);
          const appends: StreamAppend[] = [
            ...appendTo(postStream(postId), post, events, meta),
          ];
          if (authorId === who.userId) appends.push(...actors.append(who, actor, freed, meta));
          else {
            appends.push(...actors.append(who, actor, [], meta));
            appends.push(...appendTo(userStream(authorId), author, freed, meta));
          }
          return { appends, answer: acceptedAs(postId) };
        },
        idempotency,
      );
    },

    /**
     * PATCH /api/users/membership/:email. Records the attempt, charges once
     * (the attempt id is the provider's idempotency key), records the outcome.
     * `targetUserId` is the caller's own id, or another user's for an admin.
     */
    async purchaseMembership(who: Identity, targetUserId: string, attemptId: string, meta: CommandMeta): Promise<Executed<Accepted>> {
      const payment = options.payment;
      if (!payment) throw new Unavailable('No payment provider is configured');
      let target: { userId: string; email: string } | null = null;
      let attempt = attemptId;
      await execute(store, async () => {
        const self = targetUserId === who.userId;
        const actor = await actors.load(who, meta);
        if (!self && registered(actor.state).role !== 'admin') throw new Forbidden('You can only buy membership for yourself');
        const user = self ? actor : { ...(await load(store, userStream(targetUserId), evolveUser, initialUserState)), registration: [] as UserEvent[] };
        const events = decideUser({ type: 'StartMembershipPurchase', data: { attemptId, staleAfterMs } }, user.state, meta);
        const state = registered(user.state);
        target = { userId: state.userId, email: state.email };
        attempt = events.length > 0 ? attemptId : state.pendingPurchase!.attemptId; // [] = resume the stale attempt
        const appends = self
          ? actors.append(who, actor, events, meta)
          : [...actors.append(who, actor, [], meta), ...appendTo(userStream(targetUserId), user, events, meta)];
        return { appends, answer: () => ({}) };
      });
      const customer = target!;
      const charged = await payment.charge({
        idempotencyKey: attempt,
        amountCents: MEMBERSHIP_PRICE.amountCents,
        currency: MEMBERSHIP_PRICE.currency,
        customer: { id: customer.userId, email: customer.email },
        description: 'Forum Gold membership (one-time)',
      });
      const outcome = await execute(store, async () => {
        const user = await load(store, userStream(customer.userId), evolveUser, initialUserState);
        const events = decideUser(
          charged.ok
            ? { type: 'CompleteMembershipPurchase', data: { attemptId: attempt, paymentReference: charged.reference } }
            : { type: 'FailMembershipPurchase', data: { attemptId: attempt, reason: charged.reason } },
          user.state,
          meta,
        );
        return {
          appends: appendTo(userStream(customer.userId), user, events, meta),
          answer: acceptedAs(customer.userId),
        };
      });
      if (!charged.ok) throw new PaymentFailedError(charged.reason);
      return outcome;
    },

    /** Whether a user is an admin now (a read of their stream; appends nothing). */
    async isAdmin(userId: string): Promise<boolean> {
      const { state } = await load(store, userStream(userId), evolveUser, initialUserState);
      return state.status === 'registered' && state.role === 'admin';
    },

    createTag(input: { tagId: string; name: string }, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const tags = await load(store, TAGS_STREAM, evolveTags, initialTagsState);
          const events = decideTag({ type: 'CreateTag', data: input }, tags.state, meta);
          return {
            appends: appendTo(TAGS_STREAM, tags, events, meta),
            answer: acceptedAs(input.tagId),
          };
        },
        idempotency,
      );
    },
  };
}

export type ForumCommands = ReturnType<typeof createForumCommands>;

export type { Accepted, Identity };
