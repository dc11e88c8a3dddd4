import { CommandAccepted, EmailParams, NoBody } from '@forum/contracts';
import { ForbiddenError, NotFoundError, principalOfRequest } from '@forum/platform';
import { newId } from '../ids.ts';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, commandMeta, identityOf, sendAccepted } from './context.ts';

export function membershipRoutes(api: CommandRoutes, { commands, clock, directory }: CommandAppDeps): void {
  /** Gold membership, $9.99 once: the caller's own email, or any user's for an admin. */
  api.patch(
    '/users/membership/:email',
    {
      schema: {
        answers: accepted(200, CommandAccepted, { keyed: false }),
        errors: ['FORBIDDEN', 'NOT_FOUND', 'ALREADY_MEMBER', 'PURCHASE_IN_PROGRESS', 'PAYMENT_FAILED'],
        params: EmailParams,
        body: NoBody,
      },
    },
    async (request, reply) => {
      const principal = principalOfRequest(request);
      const { email } = request.params;
      let targetUserId = principal.subject;
      if (email !== principal.email) {
        // who may ask comes before whether the user exists: a non-admin learns nothing about other emails
        if (!(await commands.isAdmin(principal.subject))) throw new ForbiddenError('You can only buy membership for yourself');
        const found = await directory.userIdByEmail(email);
        if (!found) throw new NotFoundError('No such user');
        targetUserId = found;
      }
      return sendAccepted(
        reply,
        200,
        await commands.purchaseMembership(identityOf(principal), targetUserId, newId(), commandMeta(request, principal, clock())),
      );
    },
  );
}
