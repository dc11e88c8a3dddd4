import {
  AddCommentRequest,
  AuthorEmailParams,
  ChangeVoteRequest,
  CommentIdParams,
  MarkNotificationsReadRequest,
  NoBody,
  PostIdParams,
  ReportCommentRequest,
  SetVoteRequest,
  WarnUserRequest,
} from '@forum/contracts';
import { parseInput, principalOf, requireAuth } from '@forum/platform';
import { Router } from 'express';
import { newId } from '../ids.ts';
import type { CommandAppDeps } from './app.ts';
import type { ForumCommands } from '../domain/forum.ts';
import { callOf, commandMeta, identityOf, idempotencyOf, sendAccepted, type RouteCommand } from './context.ts';

/** PUT /api/posts/:id/vote (a hot command, see createHotCommands). */
export const setVote =
  (commands: ForumCommands): RouteCommand =>
  async (principal, params, body, call) => {
    const { id } = parseInput(PostIdParams, params);
    const { vote } = parseInput(SetVoteRequest, body);
    const { meta, idempotency } = call();
    return commands.setVote(identityOf(principal), { postId: id, vote }, meta, idempotency);
  };

/** POST /api/comments (a hot command, see createHotCommands): the comment's id is the request's own. */
export const addComment =
  (commands: ForumCommands): RouteCommand =>
  async (principal, _params, body, call) => {
    const input = parseInput(AddCommentRequest, body);
    const { meta, idempotency } = call();
    return commands.addComment(identityOf(principal), { commentId: newId(), ...input }, meta, idempotency);
  };

/** Votes, comments, reports, moderation and the caller's notifications. */
export function communityRoutes({ commands, verifyToken, clock, directory }: CommandAppDeps): Router {
  const router = Router();
  const auth = requireAuth(verifyToken);

  const vote = setVote(commands);
  router.put('/posts/:id/vote', auth, async (req, res) => {
    const principal = principalOf(res);
    sendAccepted(res, 200, await vote(principal, req.params, req.body, () => callOf(req, principal, clock())));
  });

  router.patch('/posts/:id/vote', auth, async (req, res) => {
    const principal = principalOf(res);
    const { id } = parseInput(PostIdParams, req.params);
    const body = parseInput(ChangeVoteRequest, req.body);
    sendAccepted(res, 200, await commands.changeVote(identityOf(principal), { postId: id, ...body }, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  const comment = addComment(commands);
  router.post('/comments', auth, async (req, res) => {
    const principal = principalOf(res);
    sendAccepted(res, 201, await comment(principal, req.params, req.body, () => callOf(req, principal, clock())));
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
    parseInput(NoBody, req.body);
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
      { warningId: newId(), targetUserId, ...body },
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
