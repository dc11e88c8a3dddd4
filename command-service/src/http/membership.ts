import { randomUUID } from 'node:crypto';
import { EmailParams } from '@forum/contracts';
import { NotFoundError, parseInput, principalOf, requireAuth } from '@forum/platform';
import { Router } from 'express';
import type { CommandAppDeps } from './app.ts';
import { commandMeta, identityOf, sendAccepted } from './context.ts';

export function membershipRoutes({ commands, verifyToken, clock, directory }: CommandAppDeps): Router {
  const router = Router();

  /** Gold membership, $9.99 once: the caller's own email, or any user's for an admin. */
  router.patch('/users/membership/:email', requireAuth(verifyToken), async (req, res) => {
    const principal = principalOf(res);
    const { email } = parseInput(EmailParams, req.params);
    const targetUserId = email === principal.email ? principal.subject : await directory.userIdByEmail(email);
    if (!targetUserId) throw new NotFoundError('No such user');
    sendAccepted(res, 200, await commands.purchaseMembership(identityOf(principal), targetUserId, randomUUID(), commandMeta(req, principal, clock())));
  });

  return router;
}
