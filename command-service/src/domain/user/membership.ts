import { ErrorCode, MEMBERSHIP_PRICE } from '@forum/contracts';
import type { PaymentProvider } from '../../payment/port.ts';
import { registered, type Identity } from '../actor.ts';
import { acceptedAs, type Accepted, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import { Forbidden, RuleBroken, Unavailable } from '../errors.ts';
import type { Executed } from '../execute.ts';
import { decide } from './decide.ts';
import { userStreamOf } from './user.ts';

export class PaymentFailedError extends RuleBroken {
  constructor(reason: string) {
    super(ErrorCode.PAYMENT_FAILED, 'Payment failed. Please try again.', { reason });
  }
}

/** Gold membership, bought once, decided on the buyer's stream (docs/product.md). */
export function createMembershipCommands({ handle }: CommandHandler, options: { readonly payment?: PaymentProvider; readonly staleAfterMs: number }) {
  return {
    /**
     * PATCH /api/users/membership/:email. Records the attempt, charges once (the attempt id is the
     * provider's idempotency key), records the outcome. `targetUserId` is the caller's own id, or
     * another user's for an admin.
     */
    async purchaseMembership(who: Identity, targetUserId: string, attemptId: string, meta: CommandMeta): Promise<Executed<Accepted>> {
      const { payment, staleAfterMs } = options;
      if (!payment) throw new Unavailable('No payment provider is configured');
      const started = await handle(
        { who, meta },
        {
          stream: userStreamOf(targetUserId),
          decide: (user, { actor }) => {
            if (targetUserId !== who.userId && actor.role !== 'admin') throw new Forbidden('You can only buy membership for yourself');
            return decide({ type: 'StartMembershipPurchase', data: { attemptId, staleAfterMs } }, user, meta);
          },
          // no events: resume the stale attempt, whose id is in the state
          answer: (_, { read, events }) => {
            const buyer = registered(read.state);
            return { userId: buyer.userId, email: buyer.email, attemptId: events.length > 0 ? attemptId : buyer.pendingPurchase!.attemptId };
          },
        },
      );
      const { userId, email, attemptId: attempt } = started.answer;
      const charged = await payment.charge({
        idempotencyKey: attempt,
        amountCents: MEMBERSHIP_PRICE.amountCents,
        currency: MEMBERSHIP_PRICE.currency,
        customer: { id: userId, email },
        description: 'Forum Gold membership (one-time)',
      });
      const outcome = await handle(
        { meta },
        {
          stream: userStreamOf(userId),
          decide: (user) =>
            decide(
              charged.ok
                ? { type: 'CompleteMembershipPurchase', data: { attemptId: attempt, paymentReference: charged.reference } }
                : { type: 'FailMembershipPurchase', data: { attemptId: attempt, reason: charged.reason } },
              user,
              meta,
            ),
          answer: acceptedAs(userId),
        },
      );
      if (!charged.ok) throw new PaymentFailedError(charged.reason);
      return outcome;
    },
  };
}
