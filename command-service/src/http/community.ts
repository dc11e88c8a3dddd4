import { randomUUID } from 'node:crypto';
import {
  AddCommentRequest,
  AuthorEmailParams,
  ChangeVoteRequest,
  CommentIdParams,
  MarkNotificationsReadRequest,
  PostIdParams,
  ReportCommentRequest,
  SetVoteRequest,
  WarnUserRequest,
} from '@forum/contracts';
import { parseInput, principalOf, requireAuth } from '@forum/platform';
import { Router } from 'express';
import type { CommandAppDeps } from './app.ts';
import { commandMeta, identityOf, idempotencyOf, sendAccepted } from './context.ts';

/** Votes, comments, reports, moderation and the caller's notifications. */
export function communityRoutes({ commands, verifyToken, clock, directory }: CommandAppDeps): Router {
  const router = Router();
  const auth = requireAuth(verifyToken);

  router.put('/posts/:id/vote', auth, async (req, res) => {
    const principal = principalOf(res);
    const { id } = parseInput(PostIdParams, req.params);
    const { vote } = parseInput(SetVoteRequest, req.body);
    sendAccepted(res, 200, await commands.setVote(identityOf(principal), { postId: id, vote }, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  router.patch('/posts/:id/vote', auth, async (req, res) => {
    const principal = principalOf(res);
    const { id } = parseInput(PostIdParams, req.params);
    const body = parseInput(ChangeVoteRequest, req.body);
    sendAccepted(res, 200, await commands.changeVote(identityOf(principal), { postId: id, ...body }, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  router.post('/comments', auth, async (req, res) => {
    const principal = principalOf(res);
    const body = parseInput(AddCommentRequest, req.body);
    const executed = await commands.addComment(identityOf(principal), { commentId: randomUUID(), ...body }, commandMeta(req, principal, clock()), idempotencyOf(req, principal));
    sendAccepted(res, 201, executed);
  });

  router.post('/comments/:commentId/report', auth, async (req, res) => {
    const principal = principalOf(res);
    const { commentId } = parseInput(CommentIdParams, req.params);
    const { feedback } = parseInput(ReportCommentRequest, req.body);
    sendAccepted(res, 201, await commands.reportComment(identityOf(principal), { commentId, feedback }, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  router.delete('/admin/comments/:commentId', auth, async (req, res) => {
    const principal = principalOf(res);
    const { commentId } = parseInput(CommentIdParams, req.params);
    sendAccepted(res, 200, await commands.removeComment(identityOf(principal), commentId, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  router.post('/admin/warn-user/:authorEmail', auth, async (req, res) => {
    const principal = principalOf(res);
    const { authorEmail } = parseInput(AuthorEmailParams, req.params);
    const body = parseInput(WarnUserRequest, req.body ?? {});
    // a lookup, not a rule: the admin check and the user's existence are decided on the streams
    const targetUserId = await directory.userIdByEmail(authorEmail);
    const executed = await commands.warnUser(
      identityOf(principal),
      { warningId: randomUUID(), targetUserId, ...body },
      commandMeta(req, principal, clock()),
      idempotencyOf(req, principal),
    );
    sendAccepted(res, 201, executed);
  });

  router.post('/me/notifications/read', auth, async (req, res) => {
    const principal = principalOf(res);
    const body = parseInput(MarkNotificationsReadRequest, req.body ?? {});
    sendAccepted(res, 200, await commands.markNotificationsRead(identityOf(principal), body, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  return router;
}
