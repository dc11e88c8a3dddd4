import { z } from 'zod';
import {
  ADMIN_SEARCH_MAX,
  ANNOUNCEMENT_DESCRIPTION_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  CONTACT_MESSAGE_MAX,
  CONTACT_NAME_MAX,
  EMAIL_MAX,
  HISTORY_PAGE_SIZE,
  ROLES,
  USER_ID_MAX,
} from '../constants.ts';
import { parsePositionToken } from '../position.ts';
import { emailRule, emailText, identifier, NEW_TAG_NAME_RULE, pageNumber, text, wholeNumber, type TextRule } from '../text-policy.ts';
import { Me } from './me.ts';

const page = pageNumber.default(1);
/** The staff action log's actor filter: a user id or an email. */
const AUDIT_ACTOR_MAX = Math.max(USER_ID_MAX, EMAIL_MAX);
/** A projection's name is part of PostgreSQL identifiers (at most 63 bytes, ASCII here). */
const PROJECTION_NAME_MAX = 63;

// ─── the admin check and the dashboard ──────────────────────────────────────

/** GET /api/users/admin/:email */
export const AdminCheck = z.object({ admin: z.boolean() });
export type AdminCheck = z.infer<typeof AdminCheck>;

/** GET /api/admin/stats: the admin card and the three stat cards. */
export const AdminStats = z.object({
  admin: z.object({ name: z.string(), email: z.string(), photoURL: z.string(), role: z.enum(ROLES) }),
  stats: z.object({ totalPosts: z.number().int(), totalComments: z.number().int(), totalUsers: z.number().int() }),
});
export type AdminStats = z.infer<typeof AdminStats>;

// ─── tags ───────────────────────────────────────────────────────────────────

/** An item of GET /api/admin/tags (the public GET /api/tags lists names only). */
export const AdminTag = z.object({ _id: z.string(), name: z.string() });
export type AdminTag = z.infer<typeof AdminTag>;

/** The details of 409 TAG_EXISTS: the tag that exists, in its own spelling (a name is unique ignoring case). */
export const TagExistsDetails = z.object({ tag: AdminTag });
export type TagExistsDetails = z.infer<typeof TagExistsDetails>;

/** POST /api/admin/tags ('Add Tag'): unique ignoring case (409 TAG_EXISTS, TagExistsDetails). */
export const CreateTagRequest = z.strictObject({ name: text(NEW_TAG_NAME_RULE) });
export type CreateTagRequest = z.infer<typeof CreateTagRequest>;

export const TagAdded = z.object({ success: z.literal(true), id: z.string(), tag: AdminTag, position: z.string() });
export type TagAdded = z.infer<typeof TagAdded>;

/** DELETE /api/admin/tags/:id */
export const TagIdParams = z.object({ id: z.string().uuid('Not a tag id') });
export const TagRemoved = z.object({ success: z.literal(true), id: z.string(), position: z.string() });
export type TagRemoved = z.infer<typeof TagRemoved>;

// ─── users ──────────────────────────────────────────────────────────────────

/** GET /api/admin/users?page=&search= (Manage Users): name or email contains `search`, ignoring case. */
export const AdminUsersQuery = z.object({
  page,
  search: text({ kind: 'line', label: 'Search', max: ADMIN_SEARCH_MAX }).default(''),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

/**
 * A user as the console's lists show them: the profile of GET /api/me without its registration date,
 * `email` only in an admin's answer (issue #43: moderators see no emails).
 */
export const AdminUser = Me.omit({ registeredAt: true }).extend({ email: z.string().optional() });
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUsersPage = z.object({ users: z.array(AdminUser), totalUsers: z.number().int() });
export type AdminUsersPage = z.infer<typeof AdminUsersPage>;

/** PATCH /api/admin/users/make-admin/:userId (the user's forum id, the identity provider's subject). */
export const AdminUserIdParams = z.object({ userId: identifier('user id') });

// ─── announcements ──────────────────────────────────────────────────────────

/** An announcement's title and description (Make Announcement's counters count by them). */
export const ANNOUNCEMENT_TITLE_RULE: TextRule = { kind: 'title', label: 'Title', max: ANNOUNCEMENT_TITLE_MAX, required: 'Title is required' };
export const ANNOUNCEMENT_DESCRIPTION_RULE: TextRule = {
  kind: 'body',
  label: 'Description',
  max: ANNOUNCEMENT_DESCRIPTION_MAX,
  required: 'Description is required',
};
/** POST /api/admin/announcements: spec §5's messages when a field is missing or blank. */
export const CreateAnnouncementRequest = z.strictObject({
  title: text(ANNOUNCEMENT_TITLE_RULE),
  description: text(ANNOUNCEMENT_DESCRIPTION_RULE),
});
export type CreateAnnouncementRequest = z.infer<typeof CreateAnnouncementRequest>;

/** An item of GET /api/announcements, newest first. */
export const Announcement = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  authorName: z.string(),
  authorPhoto: z.string(),
  date: z.string(),
});
export type Announcement = z.infer<typeof Announcement>;
/** GET /api/announcements without a range: the newest UNPAGED_LIST_MAX announcements, newest first (all of them counted in X-Total-Count). */
export const AnnouncementList = z.array(Announcement);

// ─── contact ────────────────────────────────────────────────────────────────

/** The Contact page's fields (its counters count by them). */
export const CONTACT_NAME_RULE: TextRule = { kind: 'name', label: 'Name', max: CONTACT_NAME_MAX, required: 'Name is required' };
export const CONTACT_EMAIL_RULE = emailRule('Email');
export const CONTACT_MESSAGE_RULE: TextRule = { kind: 'body', label: 'Message', max: CONTACT_MESSAGE_MAX, required: 'Message is required' };
/** POST /api/contact (the Contact page; no token needed). */
export const ContactMessageRequest = z.strictObject({
  name: text(CONTACT_NAME_RULE),
  email: emailText('Email'),
  message: text(CONTACT_MESSAGE_RULE),
});
export type ContactMessageRequest = z.infer<typeof ContactMessageRequest>;

/** GET /api/admin/contact-messages?page=, newest first. */
export const ContactMessagesQuery = z.object({ page });
export const ContactMessage = z.object({ _id: z.string(), name: z.string(), email: z.string(), message: z.string(), receivedAt: z.string() });
export type ContactMessage = z.infer<typeof ContactMessage>;
export const ContactMessagesPage = z.object({ messages: z.array(ContactMessage), totalMessages: z.number().int() });
export type ContactMessagesPage = z.infer<typeof ContactMessagesPage>;

// ─── staff action log ───────────────────────────────────────────────────────

/**
 * The events the staff action log lists (AdminRoleGranted only when an admin or the operator granted it, PostDeleted,
 * CommentRemoved, PostEdited and CommentEdited only when not by their author, AccountErased only when not by the member themselves).
 */
export const AUDIT_TYPES = [
  'AdminRoleGranted',
  'TagCreated',
  'TagDeleted',
  'AnnouncementPublished',
  'CommentRemoved',
  'UserWarned',
  'PostDeleted',
  'ProjectionRebuildRequested',
  'AccountErased',
  'AccountDisabled',
  'AccountEnabled',
  'PostEdited',
  'CommentEdited',
  // moderation (issue #43)
  'ModeratorRoleGranted',
  'ModeratorRoleRevoked',
  'MemberSuspended',
  'SuspensionLifted',
  'ReportsDismissed',
  'PostHidden',
  'PostUnhidden',
  'CommentHidden',
  'CommentUnhidden',
  'PostLocked',
  'PostUnlocked',
  'PostPinned',
  'PostUnpinned',
] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

const emptyIsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });
const DAY_MS = 24 * 60 * 60 * 1000;
/** A bound of the log's date filter: an ISO 8601 date, or a date-time with its time zone (Z or an offset). */
const timeBound = (label: string) =>
  z.preprocess(
    emptyIsAbsent,
    z
      .string({ error: `${label} must be a date` })
      .trim()
      .max(40, `${label} must be an ISO 8601 date (2026-05-01) or date-time with a time zone (2026-05-01T09:30:00Z)`)
      .refine(
        (value) => isoDate.safeParse(value).success || isoDateTime.safeParse(value).success,
        `${label} must be an ISO 8601 date (2026-05-01) or date-time with a time zone (2026-05-01T09:30:00Z)`,
      )
      .optional(),
  );

const auditFilterFields = {
  actor: z.preprocess(emptyIsAbsent, text({ kind: 'line', label: 'Actor', max: AUDIT_ACTOR_MAX }).optional()),
  type: z.preprocess(emptyIsAbsent, z.enum(AUDIT_TYPES, `Type must be one of ${AUDIT_TYPES.join(', ')}`).optional()),
  since: timeBound('Since'),
  until: timeBound('Until'),
};

/** The refusal (on `until`) of a span that ends before it starts: the console says it in its own words. */
export const AUDIT_EMPTY_SPAN = 'Until must not be before since';

/**
 * `since` and `until` as the half-open span [from, before) of `at`: `since` from its first
 * instant (a date alone: 00:00 UTC), `until` up to and including its last (a date alone: that whole
 * day, UTC; a date-time: to the millisecond, as `at` is shown). An empty span is a 400 on `until`.
 */
function auditSpan<T extends { since?: string | undefined; until?: string | undefined }>({ since, until, ...rest }: T, ctx: z.RefinementCtx) {
  const dateOnly = (value: string) => isoDate.safeParse(value).success;
  const from = since === undefined ? undefined : new Date(dateOnly(since) ? `${since}T00:00:00Z` : since);
  const before = until === undefined ? undefined : new Date(dateOnly(until) ? Date.parse(`${until}T00:00:00Z`) + DAY_MS : Date.parse(until) + 1);
  if (from && before && from.getTime() >= before.getTime()) {
    ctx.addIssue({ code: 'custom', path: ['until'], message: AUDIT_EMPTY_SPAN });
    return z.NEVER;
  }
  return { ...rest, ...(from && { from }), ...(before && { before }) };
}

/**
 * The staff action log's filter (GET /api/admin/audit's query, or react-admin's `filter` JSON):
 * `actor` is a user id or an email; `type` one of AUDIT_TYPES; `since`/`until` ISO 8601 dates or
 * date-times (see auditSpan), parsed into `from` (inclusive) and `before` (exclusive). Bad input is
 * a 400 VALIDATION_FAILED with a message per field.
 */
export const AuditFilter = z.object(auditFilterFields).transform(auditSpan);
export type AuditFilter = z.output<typeof AuditFilter>;

/** GET /api/admin/audit?actor=&type=&since=&until=&page= */
export const AuditQuery = z.object({ ...auditFilterFields, page }).transform(auditSpan);
export type AuditQuery = z.output<typeof AuditQuery>;

export const AUDIT_TARGETS = ['user', 'post', 'comment', 'tag', 'announcement', 'projection'] as const;

export const AuditEntry = z.object({
  _id: z.string(),
  at: z.string(),
  /** name and email from the forum's record of the actor; for the system's own writes, the id and ''. */
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  type: z.enum(AUDIT_TYPES),
  target: z.object({ type: z.enum(AUDIT_TARGETS), id: z.string() }),
  summary: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z.object({ entries: z.array(AuditEntry), total: z.number().int() });
export type AuditPage = z.infer<typeof AuditPage>;

// ─── projections (operators) ────────────────────────────────────────────────

/**
 * An item of GET /api/admin/projections: one build of a read model. A rebuild
 * is a new build beside the live one (`building`), switched in when caught up.
 */
export const ProjectionStatus = z.object({
  name: z.string(),
  version: z.number().int(),
  build: z.number().int(),
  /** The schema holding the build's tables; the `read` views point at the live build's. */
  schema: z.string(),
  /** `halted`: stopped at an event it cannot apply (see `error` and `failedPosition`); the other projections go on. */
  state: z.enum(['live', 'building', 'halted']),
  role: z.enum(['live', 'building']),
  checkpoint: z.string(),
  head: z.string(),
  /** Events behind the head of the log. */
  lag: z.number().int(),
  error: z.string().nullable(),
  failedPosition: z.string().nullable(),
  /** Who asked for this build (a rebuild), if anyone did. */
  requestedBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProjectionStatus = z.infer<typeof ProjectionStatus>;

/** POST /api/admin/projections/:name/rebuild */
export const ProjectionNameParams = z.object({ name: identifier('projection', PROJECTION_NAME_MAX) });
export const RebuildStarted = z.object({ success: z.literal(true), resumed: z.boolean(), projection: ProjectionStatus });
export type RebuildStarted = z.infer<typeof RebuildStarted>;

// ─── the history of a user or a post (the event log itself) ─────────────────

/** Whose history: a user's (what they did, and what was done about them) or a post's (with its comments, votes and reports). See `userHistory`, `postHistory`. */
export const HISTORY_KINDS = ['user', 'post'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

const postId = z.string().uuid();

/** GET /api/admin/history/:kind/:id: a post's id is a UUID, a user's is their forum id (the identity provider's subject). */
export const HistoryParams = z
  .object({
    kind: z.enum(HISTORY_KINDS, 'Kind must be user or post'),
    id: identifier('id'),
  })
  .superRefine(({ kind, id }, ctx) => {
    if (kind === 'post' && !postId.safeParse(id).success) ctx.addIssue({ code: 'custom', path: ['id'], message: 'Not a post id' });
  });
export type HistoryParams = z.output<typeof HistoryParams>;

/** One event of a history as `forumctl history --json` prints it and the history API answers it. */
export const HistoryEntry = z.object({
  /** The event's log position (the opaque token of X-Event-Position). */
  position: z.string(),
  /** The stream it belongs to (`user-…`, `post-…`, `comment-…`, `vote-…`, `report-…`, `notifications-…`). */
  streamId: z.string(),
  /** Its number in that stream, from 1. */
  version: z.number().int(),
  at: z.string(),
  type: z.string(),
  /** Who caused it: a user id, or `system:…` / `operator:…`. */
  actor: z.string(),
  correlationId: z.string(),
  data: z.unknown(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/**
 * GET /api/admin/history/:kind/:id?after=<position>&limit=<n>: the page of the history after the
 * event at `after` (the `nextAfter` of the page before; none: from the first event), at most
 * `limit` (1 to HISTORY_PAGE_SIZE, HISTORY_PAGE_SIZE unless given) events.
 */
export const HistoryQuery = z.object({
  after: z
    .string('Not a position of this history')
    .transform((token, ctx) => {
      const position = parsePositionToken(token);
      if (!position) {
        ctx.addIssue({ code: 'custom', message: 'Not a position of this history' });
        return z.NEVER;
      }
      return position;
    })
    .optional(),
  limit: wholeNumber('Limit')
    .pipe(z.number().min(1, 'Limit starts at 1').max(HISTORY_PAGE_SIZE, `Limit must be at most ${HISTORY_PAGE_SIZE}`))
    .default(HISTORY_PAGE_SIZE),
});
export type HistoryQuery = z.output<typeof HistoryQuery>;

/**
 * GET /api/admin/history/:kind/:id: a page of the history, oldest first (404 when it has no event
 * at all), and the name and email of each user among its actors that the forum knows (by id; the
 * system's and operators' actors are not users). `nextAfter`: the `after` of the next page, null
 * on the last.
 */
export const History = z.object({
  kind: z.enum(HISTORY_KINDS),
  id: z.string(),
  events: z.array(HistoryEntry),
  actors: z.record(z.string(), z.object({ name: z.string(), email: z.string() })),
  nextAfter: z.string().nullable(),
});
export type History = z.infer<typeof History>;
