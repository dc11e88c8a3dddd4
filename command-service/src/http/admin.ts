import { AdminUserIdParams, ContactMessageRequest, CreateAnnouncementRequest, CreateTagRequest, EraseAccountRequest, NoBody, TagIdParams } from '@forum/contracts';
import { clientAddress, optionalAuth, parseInput, principalOf, requireAuth, type Principal } from '@forum/platform';
import { Router } from 'express';
import { newId } from '../ids.ts';
import type { CommandAppDeps } from './app.ts';
import { commandMeta, identityOf, idempotencyOf, sendAccepted } from './context.ts';

/**
 * The admin area's writes. Each needs a token (401) and the forum's admin role,
 * which the command checks on the caller's own stream (403 FORBIDDEN).
 */
export function adminRoutes({ commands, verifyToken, clock }: CommandAppDeps): Router {
  const router = Router();
  const auth = requireAuth(verifyToken);

  router.post('/admin/tags', auth, async (req, res) => {
    const principal = principalOf(res);
    const { name } = parseInput(CreateTagRequest, req.body);
    const executed = await commands.addTag(identityOf(principal), { tagId: newId(), name }, commandMeta(req, principal, clock()), idempotencyOf(req, principal));
    sendAccepted(res, 201, executed);
  });

  router.delete('/admin/tags/:id', auth, async (req, res) => {
    const principal = principalOf(res);
    const { id } = parseInput(TagIdParams, req.params);
    parseInput(NoBody, req.body);
    sendAccepted(res, 200, await commands.deleteTag(identityOf(principal), id, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  router.patch('/admin/users/make-admin/:userId', auth, async (req, res) => {
    const principal = principalOf(res);
    const { userId } = parseInput(AdminUserIdParams, req.params);
    parseInput(NoBody, req.body);
    sendAccepted(res, 200, await commands.makeAdmin(identityOf(principal), userId, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  /** 'Delete user' in Manage Users: erases another user's account (docs/security/erasure.md). */
  router.delete('/admin/users/:userId', auth, async (req, res) => {
    const principal = principalOf(res);
    const { userId } = parseInput(AdminUserIdParams, req.params);
    const { content } = parseInput(EraseAccountRequest, req.body);
    sendAccepted(res, 200, await commands.eraseUser(identityOf(principal), userId, content, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  router.post('/admin/announcements', auth, async (req, res) => {
    const principal = principalOf(res);
    const body = parseInput(CreateAnnouncementRequest, req.body);
    const executed = await commands.publishAnnouncement(
      identityOf(principal),
      { announcementId: newId(), title: body.title, description: body.description },
      commandMeta(req, principal, clock()),
      idempotencyOf(req, principal),
    );
    sendAccepted(res, 201, executed);
  });

  return router;
}

/** Whoever sends a contact message without a token (the metadata's actorId). */
const VISITOR: Principal = { subject: 'anonymous', email: '', emailVerified: false, name: '', picture: '', username: '', roles: [] };

/**
 * The Contact page: anyone may write (a token, when sent, must be valid and
 * names the actor); the contact limit counts by the client's address.
 */
export function contactRoutes({ commands, verifyToken, clock, trustProxy }: CommandAppDeps): Router {
  const router = Router();

  router.post('/contact', optionalAuth(verifyToken), async (req, res) => {
    const body = parseInput(ContactMessageRequest, req.body);
    const meta = commandMeta(req, res.locals.principal ?? VISITOR, clock());
    const sender = clientAddress(req, trustProxy);
    sendAccepted(res, 201, await commands.receiveContactMessage({ messageId: newId(), ...body }, meta, sender));
  });

  return router;
}
