import { ErrorCode, type ErasedContentChoice } from '@forum/contracts';
import { BusinessRuleError, ForbiddenError, NotFoundError } from '@forum/platform';
import type { EventStore, StreamAppend } from '../../eventstore/index.ts';
import { acceptedAs, appendTo, refuseClosedAccount, registered, type Accepted, type Actors, type Identity } from '../actor.ts';
import type { CommandMeta } from '../command.ts';
import { execute, load, type Executed, type Idempotency } from '../handle.ts';
import { decide as decideUser } from '../user/decide.ts';
import { evolve as evolveUser, initialUserState, userStream } from '../user/user.ts';

export class CannotEraseSelfError extends BusinessRuleError {
  constructor() {
    super(ErrorCode.CANNOT_ERASE_SELF, 'You cannot erase your own account here. Use your dashboard to delete your account.');
  }
}

const contentOf = (choice: ErasedContentChoice) => (choice === 'keep' ? ('kept' as const) : ('erased' as const));

/**
 * An account's end and its access (issue #27 item 7 and row 11; docs/security/erasure.md). The
 * erasure is decided on the member's own stream; the event store destroys their keys in the
 * same transaction as it appends `AccountErased`. Erasing again changes nothing and answers 200.
 */
export function createAccountCommands(store: EventStore, actors: Actors) {
  const loadUser = (userId: string) => load(store, userStream(userId), evolveUser, initialUserState);

  return {
    /** DELETE /api/me: the caller erases their own account (a disabled account cannot act). */
    eraseOwnAccount(who: Identity, choice: ErasedContentChoice, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const user = await loadUser(who.userId);
          if (user.state.status !== 'erased') refuseClosedAccount(user.state);
          const events = decideUser({ type: 'EraseAccount', data: { userId: who.userId, content: contentOf(choice) } }, user.state, meta);
          return { appends: appendTo(userStream(who.userId), user, events, meta), answer: acceptedAs(who.userId) };
        },
        idempotency,
      );
    },

    /** DELETE /api/admin/users/:userId: an admin erases another user's account (their own goes through their dashboard). */
    eraseUser(who: Identity, userId: string, choice: ErasedContentChoice, meta: CommandMeta, idempotency?: Idempotency): Promise<Executed<Accepted>> {
      return execute(
        store,
        async () => {
          const actor = await actors.load(who, meta);
          if (registered(actor.state).role !== 'admin') throw new ForbiddenError('You must be an admin to do this');
          if (userId === who.userId) throw new CannotEraseSelfError();
          const user = await loadUser(userId);
          if (user.state.status === 'unknown') throw new NotFoundError('No such user');
          const events = decideUser({ type: 'EraseAccount', data: { userId, content: contentOf(choice) } }, user.state, meta);
          const appends: StreamAppend[] = [...actors.append(who, actor, [], meta), ...appendTo(userStream(userId), user, events, meta)];
          return { appends, answer: acceptedAs(userId) };
        },
        idempotency,
      );
    },

    /**
     * The identity realm disabled or enabled an account (its admin API calls back before it
     * changes the account; the realm's admin is the actor in `meta`). Recorded also for an account
     * the forum has not seen yet, so that a token it was given earlier is refused too.
     */
    setAccountAccess(userId: string, enabled: boolean, meta: CommandMeta): Promise<Executed<Accepted>> {
      return execute(store, async () => {
        const user = await loadUser(userId);
        const events = decideUser({ type: 'SetAccountAccess', data: { userId, enabled } }, user.state, meta);
        return { appends: appendTo(userStream(userId), user, events, meta), answer: acceptedAs(userId) };
      });
    },
  };
}
