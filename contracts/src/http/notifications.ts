import { z } from 'zod';
import {
  DELIVERIES,
  DELIVERIES_OF,
  HANDLE_MAX,
  HANDLE_MIN,
  HANDLE_PATTERN,
  NOTIFICATION_KINDS,
  NOTIFICATION_READ_IDS_MAX,
  RESERVED_HANDLES,
  ROLES,
  type Delivery,
  type NotificationKind,
} from '../constants.ts';
import { identifier, pageNumber, text } from '../text-policy.ts';
import { BADGES } from './community.ts';
import { PostListItem, tagName } from './posts.ts';

// ── handles (issue #42, docs/notifications.md#handles) ──────────────────────

/** A handle folded for comparing: handles are unique ignoring case (ASCII only, so lower case is enough). */
export const foldHandle = (handle: string) => handle.toLowerCase();

/** A handle as PATCH /api/me and the realm's register form check it (the rules: HANDLE_PATTERN). */
export const handleText = (label = 'Handle') =>
  text({ kind: 'line', label, max: HANDLE_MAX, required: `${label} must not be empty` })
    .refine((value) => [...value].length >= HANDLE_MIN, `${label} must be at least ${HANDLE_MIN} characters`)
    .refine((value) => HANDLE_PATTERN.test(value), `${label} may use letters a-z, digits and _, with single . or - between them (not first or last)`)
    .refine((value) => !RESERVED_HANDLES.includes(foldHandle(value)), `${label} is reserved: choose another`);

/** GET /api/users/handles?prefix=…: handles starting with `prefix` (ignoring case), for the editor's @ autocomplete. */
export const HandleSuggestionsQuery = z.object({
  prefix: z
    .string()
    .max(HANDLE_MAX, 'Prefix is too long')
    .regex(/^[A-Za-z0-9_.-]*$/, 'Not a handle'),
});
export const HandleSuggestion = z.object({ _id: z.string(), handle: z.string(), name: z.string(), photoURL: z.string() });
export type HandleSuggestion = z.infer<typeof HandleSuggestion>;
/** At most HANDLE_SUGGESTIONS_MAX, the exact match first, then by handle. */
export const HandleSuggestions = z.object({ users: z.array(HandleSuggestion) });
export type HandleSuggestions = z.infer<typeof HandleSuggestions>;

// ── public profiles ─────────────────────────────────────────────────────────

/** A member's id, or `@` and their handle: one run of visible characters (no NUL nor control character reaches the database). */
export const PublicProfileParams = z.object({ id: identifier('user id') });
export const PublicProfileQuery = z.object({ page: pageNumber.default(1) });

/**
 * GET /api/users/:id: a member's public page (no email). An erased member has none (404). `posts`: a
 * page (PAGE_SIZE) of their live posts, newest first; `totalCount` all of them.
 */
export const PublicProfile = z.object({
  user: z.object({
    _id: z.string(),
    name: z.string(),
    handle: z.string().nullable(),
    photoURL: z.string(),
    registeredAt: z.string(),
    role: z.enum(ROLES),
    isMember: z.boolean(),
    badge: z.enum(BADGES),
  }),
  stats: z.object({ posts: z.number().int(), comments: z.number().int(), commentsReceived: z.number().int(), upVotes: z.number().int() }),
  posts: z.array(PostListItem),
  totalCount: z.number().int(),
});
export type PublicProfile = z.infer<typeof PublicProfile>;

// ── follows ────────────────────────────────────────────────────────────────

/** PUT and DELETE /api/tags/:name/follow: the tag by name, ignoring case (404 for a tag the forum does not have). */
export const TagNameParams = z.object({ name: tagName('Tag') });

/** GET /api/me/followed-tags: the names of the tags the caller follows, by name. */
export const FollowedTags = z.object({ tags: z.array(z.string()) });
export type FollowedTags = z.infer<typeof FollowedTags>;

/** GET /api/posts/:id/follow (a signed-in member): whether they follow the post (by default as its author or a commenter, or by choice). */
export const PostFollowing = z.object({ following: z.boolean() });
export type PostFollowing = z.infer<typeof PostFollowing>;

// ── notifications ──────────────────────────────────────────────────────────

/** The notification centre: a page of forum-web's dashboard. */
export const NOTIFICATIONS_PATH = '/dashboard/notifications';

/** Where a notification leads in forum-web: a post, or a comment on its page (`#comment-<id>`). */
export const postLink = (postId: string) => `/post/${postId}`;
export const commentLink = (postId: string, commentId: string) => `/post/${postId}#comment-${commentId}`;

/**
 * A warning. One about a comment names it (`commentId`), its post (`postId`; `postTitle` while
 * the post is there) and quotes the comment's start (`commentQuote`, WARNING_QUOTE_LENGTH
 * characters); older warnings may name the comment alone.
 */
export const WarningItem = z.object({
  _id: z.string(),
  kind: z.literal('warning'),
  reason: z.string(),
  commentId: z.string().optional(),
  postId: z.string().optional(),
  postTitle: z.string().optional(),
  commentQuote: z.string().optional(),
  createdAt: z.string(),
  read: z.boolean(),
  /** The comment warned about (commentLink) while its post is there, else NOTIFICATIONS_PATH. */
  link: z.string(),
});
export type WarningItem = z.infer<typeof WarningItem>;

/** Who acted: their current name ('Deleted user' once erased, with no id nor handle). */
export const Actor = z.object({ _id: z.string().nullable(), name: z.string(), handle: z.string().nullable(), photoURL: z.string() });
export type Actor = z.infer<typeof Actor>;

/**
 * A reply, a comment on a followed post, a new post in a followed tag, or a mention. Comments on one
 * post collapse into one unread notification: `count` of them ("5 new comments on <title>"), `actor`
 * the latest one's author, `commentId` the first unread one (where `link` leads), `createdAt` the
 * latest's time. A read notification stays as it was; the next comment starts a new one.
 * `postTitle` is the post's title now ('' once the post is gone: then `link` is null). `tag`: the
 * followed tag a new post came in. `excerpt`: the start of the comment or post, as plain text ('' once
 * erased or removed).
 */
export const ActivityItem = z.object({
  _id: z.string(),
  kind: z.enum(['reply', 'followed-post', 'followed-tag', 'mention']),
  postId: z.string(),
  postTitle: z.string(),
  commentId: z.string().optional(),
  tag: z.string().optional(),
  count: z.number().int(),
  actor: Actor,
  excerpt: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
  link: z.string().nullable(),
});
export type ActivityItem = z.infer<typeof ActivityItem>;

/** What staff did that a `moderation` notification tells the member (issue #43, docs/moderation.md). */
export const MODERATION_ACTIONS = ['post-hidden', 'post-unhidden', 'comment-hidden', 'comment-unhidden', 'suspended', 'suspension-lifted'] as const;

/**
 * Staff hid or showed again the member's post or comment, or suspended them or lifted it, with the
 * reason they gave (hiding, suspending). `until` is a suspension's end (null: until lifted).
 */
export const ModerationItem = z.object({
  _id: z.string(),
  kind: z.literal('moderation'),
  action: z.enum(MODERATION_ACTIONS),
  reason: z.string().optional(),
  postId: z.string().optional(),
  postTitle: z.string().optional(),
  commentId: z.string().optional(),
  until: z.string().nullable().optional(),
  createdAt: z.string(),
  read: z.boolean(),
  /** The post or comment (postLink, commentLink) while it is there, else NOTIFICATIONS_PATH. */
  link: z.string(),
});
export type ModerationItem = z.infer<typeof ModerationItem>;

export const NotificationItem = z.discriminatedUnion('kind', [
  WarningItem,
  ModerationItem,
  ActivityItem.extend({ kind: z.literal('reply') }),
  ActivityItem.extend({ kind: z.literal('followed-post') }),
  ActivityItem.extend({ kind: z.literal('followed-tag') }),
  ActivityItem.extend({ kind: z.literal('mention') }),
]);
export type NotificationItem = z.infer<typeof NotificationItem>;

/** GET /api/me/notifications?page=n&unread=true: a page (NOTIFICATION_PAGE_SIZE), newest first; `unread` only the unread. */
export const NotificationsQuery = z.object({
  page: pageNumber.default(1),
  unread: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type NotificationsQuery = z.infer<typeof NotificationsQuery>;

/**
 * GET /api/me/notifications: a page of the caller's notifications of every kind but announcements, newest
 * first; `unread` counts all their unread ones (the bell adds the announcements newer than
 * `announcementsReadUpTo`), `totalCount` those the query pages over. `announcementsReadUpTo` is how
 * far the member has read the announcements, on any device: the date of the newest they marked
 * read (announcements dated after it are unread), null before their first mark.
 */
export const Notifications = z.object({
  notifications: z.array(NotificationItem),
  unread: z.number().int(),
  totalCount: z.number().int(),
  page: z.number().int().default(1),
  announcementsReadUpTo: z.string().nullable().default(null),
});
export type Notifications = z.infer<typeof Notifications>;

/**
 * POST /api/me/notifications/read: `ids` (of any kind), or every one up to `upTo` (an ISO time,
 * e.g. the newest createdAt the client showed), or all of them when neither is sent.
 */
export const MarkNotificationsReadRequest = z
  .strictObject({
    upTo: z.string().datetime({ offset: true, message: 'upTo must be an ISO date-time' }).optional(),
    ids: z
      .array(z.string().uuid('Not a notification id'))
      .min(1, 'ids must not be empty')
      .max(NOTIFICATION_READ_IDS_MAX, `At most ${NOTIFICATION_READ_IDS_MAX} ids at once`)
      .optional(),
  })
  .refine((body) => body.upTo === undefined || body.ids === undefined, { message: 'Send upTo or ids, not both', path: ['_'] })
  .default({});
export type MarkNotificationsReadRequest = z.infer<typeof MarkNotificationsReadRequest>;

/**
 * POST /api/me/announcements/read: the newest announcement the member was shown; it and every
 * announcement published before it are read on all their devices. A mark older than the
 * member's current one changes nothing.
 */
export const MarkAnnouncementsReadRequest = z.strictObject({ announcementId: z.string().uuid('Not an announcement id') });
export type MarkAnnouncementsReadRequest = z.infer<typeof MarkAnnouncementsReadRequest>;

// ── preferences and unsubscribing ──────────────────────────────────────────

/** GET /api/me/notification-preferences: every kind's delivery (DEFAULT_DELIVERIES where never chosen). */
export const NotificationPreferences = z.object({ preferences: z.record(z.enum(NOTIFICATION_KINDS), z.enum(DELIVERIES)) });
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** PUT /api/me/notification-preferences: the kinds to change, at least one. */
export const UpdateNotificationPreferencesRequest = z
  .partialRecord(z.enum(NOTIFICATION_KINDS, 'Not a kind of notification'), z.enum(DELIVERIES, `Must be one of ${DELIVERIES.join(', ')}`))
  .refine((changes) => Object.keys(changes).length > 0, { message: 'Name at least one kind', path: ['_'] })
  .superRefine((changes, context) => {
    for (const [kind, delivery] of Object.entries(changes) as [NotificationKind, Delivery][])
      if (!DELIVERIES_OF[kind].includes(delivery))
        context.addIssue({ code: 'custom', path: [kind], message: `${kind} may be ${DELIVERIES_OF[kind].join(', ')}` });
  });
export type UpdateNotificationPreferencesRequest = z.infer<typeof UpdateNotificationPreferencesRequest>;

/**
 * POST /api/unsubscribe?token=…: the one-click unsubscribe of an email (RFC 8058: a mail client posts
 * `List-Unsubscribe=One-Click` as a form; forum-web's /unsubscribe page posts nothing), no sign-in:
 * the token, signed by the forum, names the member and the kinds the email was of (one, or every kind the
 * digest gathers), which are then 'app' (in the app only). Answers the kinds it changed and its event's position.
 */
export const UnsubscribeQuery = z.object({ token: z.string().min(1, 'The link is incomplete').max(1024, 'The link is not one the forum sent') });
export const Unsubscribed = z.object({ kinds: z.array(z.enum(NOTIFICATION_KINDS)), position: z.string().optional() });
export type Unsubscribed = z.infer<typeof Unsubscribed>;
