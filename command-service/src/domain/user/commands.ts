import { requireAdmin, type Identity } from '../actor.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import { decide, type GrantAdmin } from './decide.ts';
import { userStreamOf } from './user.ts';

/** The commands decided on a user's stream: their record, profile and role, and the identity realm's say on their access. */
export function createUserCommands({ handle, stateOf }: CommandHandler) {
  return {
    /** An operator's or the demo data's grant of the admin role. */
    grantAdmin: (userId: string, reason: GrantAdmin['data']['reason'], meta: CommandMeta) =>
      handle(
        { meta },
        { stream: userStreamOf(userId), decide: (user) => decide({ type: 'GrantAdmin', data: { reason } }, user, meta), answer: acceptedAs(userId) },
      ),

    /**
     * 'Make Admin' (PATCH /api/admin/users/make-admin/:userId): making an admin admin again appends
     * nothing and answers without a position; there is no demotion.
     */
    makeAdmin: (who: Identity, userId: string, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency },
        {
          stream: userStreamOf(userId),
          decide: (user, { actor }) => (requireAdmin(actor), decide({ type: 'GrantAdmin', data: { reason: 'admin' } }, user, meta)),
          answer: acceptedAs(userId),
        },
      ),

    /**
     * The identity realm disabled or enabled an account (its admin API calls back before it
     * changes the account; the realm's admin is the actor in `meta`). Recorded also for an account
     * the forum has not seen yet, so that a token it was given earlier is refused too.
     */
    setAccountAccess: (userId: string, enabled: boolean, meta: CommandMeta) =>
      handle(
        { meta },
        {
          stream: userStreamOf(userId),
          decide: (user) => decide({ type: 'SetAccountAccess', data: { userId, enabled } }, user, meta),
          answer: acceptedAs(userId),
        },
      ),

    /** Whether a user is an admin now (a read of their stream; appends nothing). */
    async isAdmin(userId: string): Promise<boolean> {
      const state = await stateOf(userStreamOf(userId));
      return state.status === 'registered' && state.role === 'admin';
    },
  };
}
