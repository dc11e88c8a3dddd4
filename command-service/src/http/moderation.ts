import {
  AdminUserIdParams,
  CommentIdParams,
  HideRequest,
  LockPostRequest,
  ModeratedItemParams,
  NoBody,
  PostIdParams,
  SuspendMemberRequest,
  WarnMemberRequest,
} from '@forum/contracts';
import { newId } from '../ids.ts';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, memberCallOf, sendAccepted } from './context.ts';

/**
 * Staff's writes (issue #43, docs/moderation.md), under /api/admin: hide, lock, pin, warn,
 * suspend and dismiss for admins and moderators alike, the moderator role for admins. Each needs a token (401) and the role,
 * which the command checks on the caller's own stream (403 FORBIDDEN); a moderator acting on staff
 * is 403 STAFF_PROTECTED.
 */
export function moderationRoutes(api: CommandRoutes, { commands, clock }: CommandAppDeps): void {
  api.put(
    '/admin/users/:userId/moderator',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'ALREADY_ADMIN'], params: AdminUserIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.grantModerator(identity, request.params.userId, meta, idempotency));
    },
  );

  api.delete(
    '/admin/users/:userId/moderator',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'ALREADY_ADMIN'], params: AdminUserIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.revokeModerator(identity, request.params.userId, meta, idempotency));
    },
  );

  api.post(
    '/admin/reports/:kind/:id/dismiss',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND'], params: ModeratedItemParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.dismissReports(identity, request.params, meta, idempotency));
    },
  );

  api.put(
    '/admin/posts/:id/hide',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: PostIdParams, body: HideRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.hidePost(identity, { postId: request.params.id, reason: request.body.reason }, meta, idempotency));
    },
  );

  api.delete(
    '/admin/posts/:id/hide',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: PostIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.unhidePost(identity, request.params.id, meta, idempotency));
    },
  );

  api.put(
    '/admin/comments/:commentId/hide',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: CommentIdParams, body: HideRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const hide = { commentId: request.params.commentId, reason: request.body.reason };
      return sendAccepted(reply, 200, await commands.hideComment(identity, hide, meta, idempotency));
    },
  );

  api.delete(
    '/admin/comments/:commentId/hide',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: CommentIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.unhideComment(identity, request.params.commentId, meta, idempotency));
    },
  );

  api.put(
    '/admin/posts/:id/lock',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND'], params: PostIdParams, body: LockPostRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.lockPost(identity, { postId: request.params.id, ...request.body }, meta, idempotency));
    },
  );

  api.delete(
    '/admin/posts/:id/lock',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND'], params: PostIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.unlockPost(identity, request.params.id, meta, idempotency));
    },
  );

  api.put(
    '/admin/posts/:id/pin',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'PIN_LIMIT_REACHED'], params: PostIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.pinPost(identity, request.params.id, meta, idempotency));
    },
  );

  api.delete(
    '/admin/posts/:id/pin',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND'], params: PostIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.unpinPost(identity, request.params.id, meta, idempotency));
    },
  );

  api.post(
    '/admin/users/:userId/warnings',
    {
      schema: {
        answers: accepted(201),
        errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED', 'ALREADY_WARNED'],
        params: AdminUserIdParams,
        body: WarnMemberRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const warning = { warningId: newId(), targetUserId: request.params.userId, ...request.body };
      return sendAccepted(reply, 201, await commands.warnMember(identity, warning, meta, idempotency));
    },
  );

  api.post(
    '/admin/users/:userId/suspend',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: AdminUserIdParams, body: SuspendMemberRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.suspendMember(identity, { userId: request.params.userId, ...request.body }, meta, idempotency));
    },
  );

  api.delete(
    '/admin/users/:userId/suspend',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: AdminUserIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.liftSuspension(identity, request.params.userId, meta, idempotency));
    },
  );
}
