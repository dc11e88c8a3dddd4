import { EmailParams, NoBody } from '@forum/contracts';
import { ForbiddenError, NotFoundError, parseInput, principalOf, requireAuth } from '@forum/platform';
import { Router } from 'express';
import { newId } from '../ids.ts';
import type { CommandAppDeps } from './app.ts';
import { commandMeta, identityOf, sendAccepted } from './context.ts';

export function membershipRoutes({ commands, verifyToken, clock, directory }: CommandAppDeps): Router {
  const router = Router();

  /** Gold membership, $9.99 once: the caller's own email, or any user's for an admin. */
  router.patch('/users/membership/:email', requireAuth(verifyToken), async (req, res) => {
    const principal = principalOf(res);
    const { email } = parseInput(EmailParams, req.params);
    parseInput(NoBody, req.body);
    let targetUserId = principal.subject;
    if (email !== principal.email) {
      // who may ask comes before whether the user exists: a non-admin learns nothing about other emails
      if (!(await commands.isAdmin(principal.subject))) throw new ForbiddenError('You can only buy membership for yourself');
      const found = await directory.userIdByEmail(email);
      if (!found) throw new NotFoundError('No such user');
      targetUserId = found;
    }
    sendAccepted(res, 200, await commands.purchaseMembership(identityOf(principal), targetUserId, newId(), commandMeta(req, principal, clock())));
  });

  return router;
}
