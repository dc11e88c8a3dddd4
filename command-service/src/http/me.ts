import { EraseAccountRequest, NoBody, updateMeRequest } from '@forum/contracts';
import { parseInput, principalOf, requireAuth } from '@forum/platform';
import { Router } from 'express';
import type { CommandAppDeps } from './app.ts';
import { commandMeta, identityOf, idempotencyOf, sendAccepted } from './context.ts';

export function meRoutes({ commands, verifyToken, clock, forumOrigin }: CommandAppDeps): Router {
  const router = Router();
  const auth = requireAuth(verifyToken);
  const UpdateMeRequest = updateMeRequest(forumOrigin);

  /** The display name and photo of the caller ('Change Photo'). */
  router.patch('/me', auth, async (req, res) => {
    const principal = principalOf(res);
    const body = parseInput(UpdateMeRequest, req.body);
    sendAccepted(res, 200, await commands.updateProfile(identityOf(principal), body, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  /** Erases the caller's account (docs/security/erasure.md); `content`: whether their posts' and comments' text goes too. */
  router.delete('/me', auth, async (req, res) => {
    const principal = principalOf(res);
    const { content } = parseInput(EraseAccountRequest, req.body);
    sendAccepted(res, 200, await commands.eraseOwnAccount(identityOf(principal), content, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  /**
   * Records the caller's first authenticated request. The query side calls it
   * (with the caller's token) when it meets a subject it does not know yet.
   */
  router.post('/me/registration', auth, async (req, res) => {
    const principal = principalOf(res);
    parseInput(NoBody, req.body);
    sendAccepted(res, 200, await commands.registerUser(identityOf(principal), commandMeta(req, principal, clock())));
  });

  return router;
}
