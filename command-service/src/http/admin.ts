import {
  AdminUserIdParams,
  CommandAccepted,
  ContactMessageRequest,
  CreateAnnouncementRequest,
  CreateTagRequest,
  EraseAccountRequest,
  NoBody,
  TagAdded,
  TagIdParams,
  TagRemoved,
} from '@forum/contracts';
import { clientAddress, type Principal } from '@forum/platform';
import { newId } from '../ids.ts';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, commandMeta, memberCallOf, sendAccepted } from './context.ts';

/**
 * The admin area's writes. Each needs a token (401) and the forum's admin role,
 * which the command checks on the caller's own stream (403 FORBIDDEN).
 */
export function adminRoutes(api: CommandRoutes, { commands, clock }: CommandAppDeps): void {
  api.post(
    '/admin/tags',
    { schema: { answers: accepted(201, TagAdded), errors: ['FORBIDDEN', 'TAG_EXISTS'], body: CreateTagRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const tag = { tagId: newId(), name: request.body.name };
      return sendAccepted(reply, 201, await commands.addTag(identity, tag, meta, idempotency));
    },
  );

  api.delete(
    '/admin/tags/:id',
    { schema: { answers: accepted(200, TagRemoved), errors: ['FORBIDDEN', 'NOT_FOUND'], params: TagIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.deleteTag(identity, request.params.id, meta, idempotency));
    },
  );

  api.patch(
    '/admin/users/make-admin/:userId',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND'], params: AdminUserIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.makeAdmin(identity, request.params.userId, meta, idempotency));
    },
  );

  /** 'Delete user' in Manage Users: erases another user's account (docs/security/erasure.md). */
  api.delete(
    '/admin/users/:userId',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'CANNOT_ERASE_SELF'], params: AdminUserIdParams, body: EraseAccountRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const erased = await commands.eraseUser(identity, request.params.userId, request.body.content, meta, idempotency);
      return sendAccepted(reply, 200, erased);
    },
  );

  api.post('/admin/announcements', { schema: { answers: accepted(201), errors: ['FORBIDDEN'], body: CreateAnnouncementRequest } }, async (request, reply) => {
    const { identity, meta, idempotency } = memberCallOf(request, clock());
    const announcement = { announcementId: newId(), title: request.body.title, description: request.body.description };
    return sendAccepted(reply, 201, await commands.publishAnnouncement(identity, announcement, meta, idempotency));
  });
}

/** Whoever sends a contact message without a token (the metadata's actorId). */
const VISITOR: Principal = {
  subject: 'anonymous',
  email: '',
  emailVerified: false,
  name: '',
  picture: '',
  username: '',
  handle: '',
  roles: [],
  clientRoles: {},
};

/**
 * The Contact page: anyone may write (a token, when sent, must be valid and
 * names the actor); the contact limit counts by the client's address.
 */
export function contactRoutes(api: CommandRoutes, { commands, clock, trustProxy }: CommandAppDeps): void {
  api.post(
    '/contact',
    { schema: { answers: accepted(201, CommandAccepted, { keyed: false }), errors: ['RATE_LIMITED'], body: ContactMessageRequest } },
    async (request, reply) => {
      const meta = commandMeta(request, request.principal ?? VISITOR, clock());
      const sender = clientAddress(request.raw, trustProxy);
      return sendAccepted(reply, 201, await commands.receiveContactMessage({ messageId: newId(), ...request.body }, meta, sender));
    },
  );
}
