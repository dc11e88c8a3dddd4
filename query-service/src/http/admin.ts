import {
  ADMIN_PAGE_SIZE,
  AdminUsersQuery,
  AuditQuery,
  AUDIT_TYPES,
  ContactMessagesQuery,
  EmailParams,
  type AdminCheck,
  type AdminStats,
  type AdminTag,
  type AdminUser,
  type AdminUsersPage,
  type Announcement,
  type AuditEntry,
  type AuditPage,
  type AuditType,
  type ContactMessage,
  type ContactMessagesPage,
  type ProjectionStatus,
} from '@forum/contracts';
import { parseInput, ValidationError } from '@forum/platform';
import { Router } from 'express';
import type { AdminStore, AdminUserRow, AnnouncementRow, AuditRow, ContactMessageRow } from '../store/admin.ts';
import type { UsersStore } from '../store/users.ts';
import { adminOf, adminOnly, ownerOrAdmin } from './access.ts';
import { rangeQuery, sendRange } from './range.ts';

const adminUser = (row: AdminUserRow): AdminUser => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  photoURL: row.photo_url,
  role: row.role,
  isMember: row.is_member,
});

const announcement = (row: AnnouncementRow): Announcement => ({
  _id: row.id,
  title: row.title,
  description: row.description,
  authorName: row.author_name,
  authorPhoto: row.author_photo,
  date: row.published_at.toISOString(),
});

const contactMessage = (row: ContactMessageRow): ContactMessage => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  message: row.message,
  receivedAt: row.received_at.toISOString(),
});

const auditEntry = (row: AuditRow): AuditEntry => ({
  _id: row.id,
  at: row.at.toISOString(),
  actor: { id: row.actor_id, name: row.actor_name ?? row.actor_id, email: row.actor_email ?? '' },
  type: row.type,
  target: { type: row.target_type, id: row.target_id },
  summary: row.summary,
});

/** A react-admin `filter` value as a string (absent, or not a string: ''). */
const filterText = (filter: Record<string, unknown>, ...keys: string[]) => {
  for (const key of keys) if (typeof filter[key] === 'string') return (filter[key] as string).trim();
  return '';
};

export function adminRoutes(admin: AdminStore, users: UsersStore): Router {
  const router = Router();

  /** The spec's admin check: for the caller's own email, or any email for an admin (404 when unknown). */
  router.get('/users/admin/:email', async (req, res) => {
    const { email } = parseInput(EmailParams, req.params);
    const user = await ownerOrAdmin(users, res, email, 'You can only check your own role');
    const body: AdminCheck = { admin: user.role === 'admin' };
    res.json(body);
  });

  router.get('/admin/stats', async (_req, res) => {
    const viewer = adminOf(res);
    const body: AdminStats = {
      admin: { name: viewer.name, email: viewer.email, photoURL: viewer.photo_url, role: viewer.role },
      stats: await admin.stats(),
    };
    res.json(body);
  });

  router.get('/admin/tags', adminOnly, async (req, res) => {
    const tags: AdminTag[] = (await admin.tags()).map((row) => ({ _id: row.id, name: row.name }));
    const range = rangeQuery(req);
    if (range) {
      const page = tags.slice(range.start, range.end + 1);
      sendRange(res, 'tags', page.map((tag) => ({ id: tag._id, ...tag })), range.start, tags.length);
      return;
    }
    res.json(tags);
  });

  router.get('/admin/users', adminOnly, async (req, res) => {
    const range = rangeQuery(req);
    if (range) {
      const search = filterText(range.filter, 'q', 'search');
      const { rows, total } = await admin.usersRange(range.start, range.end, search, range.field, range.direction);
      sendRange(res, 'users', rows.map((row) => ({ id: row.id, ...adminUser(row) })), range.start, total);
      return;
    }
    const { page, search } = parseInput(AdminUsersQuery, req.query);
    const { rows, total } = await admin.usersPage(page, search);
    const body: AdminUsersPage = { users: rows.map(adminUser), totalUsers: total };
    res.json(body);
  });

  router.get('/admin/contact-messages', adminOnly, async (req, res) => {
    const range = rangeQuery(req);
    if (range) {
      const { rows, total } = await admin.contactMessages(range.start, range.end - range.start + 1);
      sendRange(res, 'contact-messages', rows.map((row) => ({ id: row.id, ...contactMessage(row) })), range.start, total);
      return;
    }
    const { page } = parseInput(ContactMessagesQuery, req.query);
    const { rows, total } = await admin.contactMessages((page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
    const body: ContactMessagesPage = { messages: rows.map(contactMessage), totalMessages: total };
    res.json(body);
  });

  /** The staff action log, newest first; `actor` (id or email) and `type` narrow it. */
  // the projections' builds, checkpoints, lag and any halt (operators; POST …/:name/rebuild is on the command side)
  router.get('/admin/projections', adminOnly, async (_req, res) => {
    const body: ProjectionStatus[] = await admin.projections();
    res.json(body);
  });

  router.get('/admin/audit', adminOnly, async (req, res) => {
    const range = rangeQuery(req);
    if (range) {
      const actor = filterText(range.filter, 'actor');
      const type = filterText(range.filter, 'type');
      if (type && !(AUDIT_TYPES as readonly string[]).includes(type)) throw new ValidationError({ filter: [`Type must be one of ${AUDIT_TYPES.join(', ')}`] });
      const filter = { ...(actor && { actor }), ...(type && { type: type as AuditType }) };
      const { rows, total } = await admin.audit(filter, range.start, range.end - range.start + 1);
      sendRange(res, 'audit', rows.map((row) => ({ id: row.id, ...auditEntry(row) })), range.start, total);
      return;
    }
    const { actor, type, page } = parseInput(AuditQuery, req.query);
    const { rows, total } = await admin.audit({ ...(actor && { actor }), ...(type && { type }) }, (page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
    const body: AuditPage = { entries: rows.map(auditEntry), total };
    res.json(body);
  });

  return router;
}

/** GET /api/announcements: public, newest first (the bell counts them). */
export function announcementRoutes(admin: AdminStore): Router {
  const router = Router();
  router.get('/announcements', async (req, res) => {
    const range = rangeQuery(req);
    if (range) {
      const { rows, total } = await admin.announcements(range.start, range.end - range.start + 1);
      sendRange(res, 'announcements', rows.map((row) => ({ id: row.id, ...announcement(row) })), range.start, total);
      return;
    }
    const body: Announcement[] = (await admin.announcements()).rows.map(announcement);
    res.json(body);
  });
  return router;
}
