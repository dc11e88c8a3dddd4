import {
  ADMIN_PAGE_SIZE,
  AdminUsersQuery,
  AuditFilter,
  AuditQuery,
  ContactMessagesQuery,
  EmailParams,
  HistoryParams,
  HistoryQuery,
  HEADER_TOTAL_COUNT,
  rangeOr,
  TAG_LIST_MAX,
  AdminCheck,
  AdminStats,
  AdminTag,
  AdminUser,
  AdminUsersPage,
  Announcement,
  AuditEntry,
  AuditPage,
  ContactMessage,
  ContactMessagesPage,
  History,
  ProjectionStatus,
} from '@forum/contracts';
import { NotFoundError, parseInput } from '@forum/platform';
import { history, type HistoryReader } from '@forum/eventstore';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AdminStore, AdminUserRow, AnnouncementRow, AuditRow, ContactMessageRow } from '../store/admin.ts';
import { suspensionAt, type UsersStore } from '../store/users.ts';
import { adminOf, adminOnly, ownerOrAdmin, staffOf, staffOnly } from './access.ts';
import { rangeAnswers, rangeQuery, sendRange, totalCountHeaders } from './range.ts';

/** A user as the console lists them: `email` only for an admin (issue #43), the suspension in force at `now`. */
const adminUser = (row: AdminUserRow, withEmail: boolean, now: Date): AdminUser => ({
  _id: row.id,
  name: row.name,
  ...(withEmail && { email: row.email }),
  handle: row.handle,
  photoURL: row.photo_url,
  role: row.role,
  isMember: row.is_member,
  suspension: suspensionAt(row, now),
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

const auditEntry = (row: AuditRow, withEmail: boolean): AuditEntry => ({
  _id: row.id,
  at: row.at.toISOString(),
  actor: { id: row.actor_id, name: row.actor_name ?? row.actor_id, email: withEmail ? (row.actor_email ?? '') : '' },
  type: row.type,
  target: { type: row.target_type, id: row.target_id },
  summary: row.summary,
});

/** react-admin's search of the users (`filter` {q} or {search}), under the same rules as `?search=`. */
const AdminUserSearch = AdminUsersQuery.pick({ search: true });

/** A filter narrows the log: its empty values are left out. */
const auditFilterOf = ({ actor, type, from, before }: AuditFilter) => ({
  ...(actor && { actor }),
  ...(type && { type }),
  ...(from && { from }),
  ...(before && { before }),
});

/**
 * The console's reads and the spec's admin check: admins only (401 without a token, 403 for anyone
 * else), but for the users list, the staff log and the histories, which moderators read too without
 * members' emails (issue #43). `events` reads the event log, for the history of a user or a post;
 * `clock` decides which suspensions are in force.
 */
export function adminRoutes(admin: AdminStore, users: UsersStore, events: HistoryReader, clock: () => Date = () => new Date()): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    /** The spec's admin check: for the caller's own email, or any email for an admin (404 when unknown). */
    api.get(
      '/users/admin/:email',
      { schema: { answers: { 200: { body: AdminCheck } }, errors: ['FORBIDDEN', 'NOT_FOUND'], params: EmailParams } },
      async (request) => {
        const user = await ownerOrAdmin(users, request, request.params.email, 'You can only check your own role');
        const body: AdminCheck = { admin: user.role === 'admin' };
        return body;
      },
    );

    api.get('/admin/stats', { schema: { answers: { 200: { body: AdminStats } }, errors: ['UNAUTHENTICATED', 'FORBIDDEN'] } }, async (request) => {
      const viewer = adminOf(request);
      const body: AdminStats = {
        admin: { name: viewer.name, email: viewer.email, photoURL: viewer.photo_url, role: viewer.role },
        stats: await admin.stats(),
      };
      return body;
    });

    /** The spec's admin tag list: its first TAG_LIST_MAX tags by name, all of them counted in X-Total-Count; or react-admin's range. */
    api.get(
      '/admin/tags',
      { preValidation: adminOnly, schema: { answers: rangeAnswers(AdminTag.array(), AdminTag, [HEADER_TOTAL_COUNT]), queryParameters: rangeOr() } },
      async (request, reply) => {
        const range = rangeQuery(request);
        const { rows, total } = await admin.tags(range?.start ?? 0, range ? range.end - range.start + 1 : TAG_LIST_MAX);
        const tags: AdminTag[] = rows.map((row) => ({ _id: row.id, name: row.name }));
        if (range)
          return sendRange(
            reply,
            'tags',
            tags.map((tag) => ({ id: tag._id, ...tag })),
            range.start,
            total,
          );
        return reply.headers(totalCountHeaders(total)).send(tags);
      },
    );

    // the react-admin range or the page (their inputs are checked apart: parseInput)
    // staff's: a moderator's answer has no emails, and their search looks in names alone
    api.get(
      '/admin/users',
      { preValidation: staffOnly, schema: { answers: rangeAnswers(AdminUsersPage, AdminUser), queryParameters: rangeOr(AdminUsersQuery) } },
      async (request, reply) => {
        const withEmails = staffOf(request).role === 'admin';
        const now = clock();
        const range = rangeQuery(request);
        if (range) {
          const { search } = parseInput(AdminUserSearch, { search: range.filter.q ?? range.filter.search });
          const { rows, total } = await admin.usersRange(range.start, range.end, search, range.field, range.direction, withEmails);
          return sendRange(
            reply,
            'users',
            rows.map((row) => ({ id: row.id, ...adminUser(row, withEmails, now) })),
            range.start,
            total,
          );
        }
        const { page, search } = parseInput(AdminUsersQuery, request.query);
        const { rows, total } = await admin.usersPage(page, search, withEmails);
        const body: AdminUsersPage = { users: rows.map((row) => adminUser(row, withEmails, now)), totalUsers: total };
        return body;
      },
    );

    api.get(
      '/admin/contact-messages',
      { preValidation: adminOnly, schema: { answers: rangeAnswers(ContactMessagesPage, ContactMessage), queryParameters: rangeOr(ContactMessagesQuery) } },
      async (request, reply) => {
        const range = rangeQuery(request);
        if (range) {
          const { rows, total } = await admin.contactMessages(range.start, range.end - range.start + 1);
          return sendRange(
            reply,
            'contact-messages',
            rows.map((row) => ({ id: row.id, ...contactMessage(row) })),
            range.start,
            total,
          );
        }
        const { page } = parseInput(ContactMessagesQuery, request.query);
        const { rows, total } = await admin.contactMessages((page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
        const body: ContactMessagesPage = { messages: rows.map(contactMessage), totalMessages: total };
        return body;
      },
    );

    // the projections' builds, checkpoints, lag and any halt (operators; POST …/:name/rebuild is on the command side);
    // react-admin's list reads them with `range`, each build keyed `<name>-<build>`
    api.get(
      '/admin/projections',
      { preValidation: adminOnly, schema: { answers: rangeAnswers(ProjectionStatus.array(), ProjectionStatus), queryParameters: rangeOr() } },
      async (request, reply) => {
        const status: ProjectionStatus[] = await admin.projections();
        const range = rangeQuery(request);
        if (range) {
          const page = status.slice(range.start, range.end + 1);
          return sendRange(
            reply,
            'projections',
            page.map((build) => ({ id: `${build.name}-${build.build}`, ...build })),
            range.start,
            status.length,
          );
        }
        return status;
      },
    );

    /**
     * The staff action log, newest first; `actor` (id or email), `type` and the dates `since` and
     * `until` narrow it, in the query or in react-admin's `filter` (400 VALIDATION_FAILED when one is bad).
     */
    api.get(
      '/admin/audit',
      { preValidation: staffOnly, schema: { answers: rangeAnswers(AuditPage, AuditEntry), queryParameters: rangeOr(AuditQuery.in) } },
      async (request, reply) => {
        const withEmails = staffOf(request).role === 'admin';
        const range = rangeQuery(request);
        if (range) {
          const filter = auditFilterOf(parseInput(AuditFilter, range.filter));
          const { rows, total } = await admin.audit(filter, range.start, range.end - range.start + 1);
          return sendRange(
            reply,
            'audit',
            rows.map((row) => ({ id: row.id, ...auditEntry(row, withEmails) })),
            range.start,
            total,
          );
        }
        const { page, ...filter } = parseInput(AuditQuery, request.query);
        const { rows, total } = await admin.audit(auditFilterOf(filter), (page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
        const body: AuditPage = { entries: rows.map((row) => auditEntry(row, withEmails)), total };
        return body;
      },
    );

    /**
     * The history of a user or a post (docs/operations/history.md), as `forumctl history` shows it: a
     * page of at most `limit` events after the position `after`, oldest first, with the names of the
     * users among its actors (the users read model). 404 when the history has no event at all; 400
     * for a kind, an id, an `after` or a `limit` that cannot be one. A page after its end is empty.
     */
    api.get(
      '/admin/history/:kind/:id',
      { preValidation: staffOnly, schema: { answers: { 200: { body: History } }, errors: ['NOT_FOUND'], params: HistoryParams, querystring: HistoryQuery } },
      async (request) => {
        const { kind, id } = request.params;
        const { after, limit } = request.query;
        // one event more than the page: whether another page follows
        const read = await history(events, kind, id, { after, limit: limit + 1 });
        if (read.length === 0 && (after === undefined || (await history(events, kind, id, { limit: 1 })).length === 0)) {
          throw new NotFoundError(kind === 'post' ? 'No such post' : 'No such user');
        }
        const page = read.slice(0, limit);
        const withEmails = staffOf(request).role === 'admin';
        const people = await admin.people([...new Set(page.map((entry) => entry.actor))]);
        const actors = Object.fromEntries(people.map((person) => [person.id, { name: person.name, email: withEmails ? person.email : '' }]));
        const body: History = { kind, id, events: page, actors, nextAfter: read.length > limit ? page.at(-1)!.position : null };
        return body;
      },
    );
    done();
  };
}

/** GET /api/announcements: public, newest first (the bell counts them): the newest UNPAGED_LIST_MAX, all of them counted in X-Total-Count; or react-admin's range. */
export function announcementRoutes(admin: AdminStore): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get(
      '/announcements',
      {
        schema: { answers: rangeAnswers(Announcement.array(), Announcement, [HEADER_TOTAL_COUNT]), queryParameters: rangeOr() },
        config: { publicRead: true, sharedBody: true },
      },
      async (request, reply) => {
        const range = rangeQuery(request);
        if (range) {
          const { rows, total } = await admin.announcements(range.start, range.end - range.start + 1);
          return sendRange(
            reply,
            'announcements',
            rows.map((row) => ({ id: row.id, ...announcement(row) })),
            range.start,
            total,
          );
        }
        const { rows, total } = await admin.announcements();
        const body: Announcement[] = rows.map(announcement);
        return reply.headers(totalCountHeaders(total)).send(body);
      },
    );
    done();
  };
}
