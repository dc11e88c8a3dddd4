import {
  AddCommentRequest,
  AuthorEmailParams,
  ChangeVoteRequest,
  CommentIdParams,
  EditCommentRequest,
  MarkAnnouncementsReadRequest,
  MarkNotificationsReadRequest,
  NoBody,
  PostIdParams,
  ReportCommentRequest,
  ReportPostRequest,
  SetVoteRequest,
  VoteAccepted,
  WarnUserRequest,
} from '@forum/contracts';
import { newId } from '../ids.ts';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, memberCallOf, sendAccepted } from './context.ts';

/** Votes, comments, reports, moderation and the caller's notifications (warnings, announcements read). */
export function communityRoutes(api: CommandRoutes, { commands, clock, directory }: CommandAppDeps): void {
  api.put(
    '/posts/:id/vote',
    {
      schema: {
        answers: accepted(200, VoteAccepted),
        errors: ['NOT_FOUND', 'OWN_POST_VOTE', 'MEMBER_SUSPENDED', 'RATE_LIMITED'],
        params: PostIdParams,
        body: SetVoteRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const vote = { postId: request.params.id, vote: request.body.vote };
      return sendAccepted(reply, 200, await commands.setVote(identity, vote, meta, idempotency));
    },
  );

  api.patch(
    '/posts/:id/vote',
    {
      schema: {
        answers: accepted(200, VoteAccepted),
        errors: ['NOT_FOUND', 'ILLEGAL_VOTE_TRANSITION', 'OWN_POST_VOTE', 'MEMBER_SUSPENDED', 'RATE_LIMITED'],
        params: PostIdParams,
        body: ChangeVoteRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const change = { postId: request.params.id, ...request.body };
      return sendAccepted(reply, 200, await commands.changeVote(identity, change, meta, idempotency));
    },
  );

  /** The comment's id is the request's own. */
  api.post(
    '/comments',
    { schema: { answers: accepted(201), errors: ['NOT_FOUND', 'POST_LOCKED', 'MEMBER_SUSPENDED', 'RATE_LIMITED'], body: AddCommentRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const comment = { commentId: newId(), ...request.body };
      return sendAccepted(reply, 201, await commands.addComment(identity, comment, meta, idempotency));
    },
  );

  api.patch(
    '/comments/:commentId',
    {
      schema: {
        answers: accepted(200),
        errors: ['FORBIDDEN', 'NOT_FOUND', 'EDIT_REASON_REQUIRED', 'MEMBER_SUSPENDED', 'RATE_LIMITED'],
        params: CommentIdParams,
        body: EditCommentRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const edit = { commentId: request.params.commentId, ...request.body };
      return sendAccepted(reply, 200, await commands.editComment(identity, edit, meta, idempotency));
    },
  );

  api.post(
    '/comments/:commentId/report',
    {
      schema: {
        answers: accepted(201),
        errors: ['NOT_FOUND', 'ALREADY_REPORTED', 'OWN_COMMENT_REPORT', 'MEMBER_SUSPENDED', 'RATE_LIMITED'],
        params: CommentIdParams,
        body: ReportCommentRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const report = { commentId: request.params.commentId, feedback: request.body.feedback };
      return sendAccepted(reply, 201, await commands.reportComment(identity, report, meta, idempotency));
    },
  );

  api.post(
    '/posts/:id/report',
    {
      schema: {
        answers: accepted(201),
        errors: ['NOT_FOUND', 'ALREADY_REPORTED', 'OWN_POST_REPORT', 'MEMBER_SUSPENDED', 'RATE_LIMITED'],
        params: PostIdParams,
        body: ReportPostRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const report = { postId: request.params.id, feedback: request.body.feedback };
      return sendAccepted(reply, 201, await commands.reportPost(identity, report, meta, idempotency));
    },
  );

  /** Staff (issue #43: moderators too). */
  api.delete(
    '/admin/comments/:commentId',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: CommentIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.removeComment(identity, request.params.commentId, meta, idempotency));
    },
  );

  api.post(
    '/admin/warn-user/:authorEmail',
    {
      schema: {
        answers: accepted(201),
        errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED', 'ALREADY_WARNED'],
        params: AuthorEmailParams,
        body: WarnUserRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      // a lookup, not a rule: the admin check and the user's existence are decided on the streams
      const targetUserId = await directory.userIdByEmail(request.params.authorEmail);
      const warning = { warningId: newId(), targetUserId, ...request.body };
      return sendAccepted(reply, 201, await commands.warnUser(identity, warning, meta, idempotency));
    },
  );

  api.post(
    '/me/notifications/read',
    { schema: { answers: accepted(200), errors: ['RATE_LIMITED'], body: MarkNotificationsReadRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.markNotificationsRead(identity, request.body, meta, idempotency));
    },
  );

  api.post(
    '/me/announcements/read',
    { schema: { answers: accepted(200), errors: ['NOT_FOUND'], body: MarkAnnouncementsReadRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.markAnnouncementsRead(identity, request.body, meta, idempotency));
    },
  );
}
