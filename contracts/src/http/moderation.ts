import { z } from 'zod';
import { MODERATION_REASON_MAX, REPORT_FEEDBACK, ROLES, SUSPENSION_PERIODS, WARNING_REASON_MAX } from '../constants.ts';
import { MODERATED_KINDS } from '../events/moderation.ts';
import { pageNumber, text, type TextRule } from '../text-policy.ts';

/**
 * Moderation beyond comments (issue #43, docs/moderation.md). Staff's calls live under
 * `/api/admin/…` beside the admins' own, at the paths the issue names (hide, lock, pin, suspend); they
 * answer admins and moderators alike (403 FORBIDDEN to members, 401 to visitors), the admins' own
 * calls admins only. Members' emails are in an answer
 * only for admins: a moderator's answer leaves `email` out.
 */

export const MODERATION_REASON_RULE: TextRule = { kind: 'line', label: 'Reason', max: MODERATION_REASON_MAX, required: 'Reason must not be empty' };

/** What a report says of the reported post or comment (the spec's three choices). */
export const reportFeedback = z.enum(REPORT_FEEDBACK, `Feedback must be one of ${REPORT_FEEDBACK.join(', ')}`);

/** POST /api/posts/:id/report (201): once per member and post (409 ALREADY_REPORTED), never one's own (422 OWN_POST_REPORT). */
export const ReportPostRequest = z.strictObject({ feedback: reportFeedback });
export type ReportPostRequest = z.infer<typeof ReportPostRequest>;

/** `/api/admin/reports/:kind/:id/…`: a post or a comment. */
export const ModeratedItemParams = z.object({
  kind: z.enum(MODERATED_KINDS, `Kind must be one of ${MODERATED_KINDS.join(', ')}`),
  id: z.string().uuid('Not an id'),
});
export type ModeratedItemParams = z.infer<typeof ModeratedItemParams>;

/** PUT /api/admin/posts/:id/hide and /api/admin/comments/:commentId/hide: the reason its author is told. */
export const HideRequest = z.strictObject({ reason: text(MODERATION_REASON_RULE) });
export type HideRequest = z.infer<typeof HideRequest>;

/** PUT /api/admin/posts/:id/lock: a reason is optional (shown on the post when given). */
export const LockPostRequest = z.strictObject({ reason: text(MODERATION_REASON_RULE).optional() }).default({});
export type LockPostRequest = z.infer<typeof LockPostRequest>;

/** The reported item an action on a member comes from, so that the queue counts it handled. */
const fromItem = z.strictObject({ kind: z.enum(MODERATED_KINDS), id: z.string().uuid('Not an id') });

/**
 * POST /api/admin/users/:userId/warnings (201): as the spec's warn-user, by the member's id (a
 * moderator sees no emails). A warning may name the post or the comment it is about (one of them).
 */
export const WarnMemberRequest = z
  .strictObject({
    reason: text({ kind: 'body', label: 'Reason', max: WARNING_REASON_MAX, required: 'Reason must not be empty' }).optional(),
    about: fromItem.optional(),
  })
  .default({});
export type WarnMemberRequest = z.infer<typeof WarnMemberRequest>;

/**
 * POST /api/admin/users/:userId/suspend: for a day or a week from now, until `until` (period
 * `date`: a future ISO time, at most SUSPENSION_MAX_DAYS away), or until lifted (`indefinite`). A
 * script may send the issue's `{until, reason}` alone: a time is the period `date`, null `indefinite`.
 * A new suspension replaces the one in force. DELETE lifts it.
 */
export const SuspendMemberRequest = z
  .strictObject({
    reason: text(MODERATION_REASON_RULE),
    period: z.enum(SUSPENSION_PERIODS, `Period must be one of ${SUSPENSION_PERIODS.join(', ')}`).optional(),
    until: z.string().datetime({ offset: true, message: 'until must be an ISO date-time or null' }).nullable().optional(),
    about: fromItem.optional(),
  })
  .refine(
    ({ period, until }) =>
      period === undefined ? until !== undefined : (period === 'date') === (typeof until === 'string') && (until !== null || period === 'indefinite'),
    { message: 'Send until (a date, or null: until lifted), a period, or the period date with its until', path: ['until'] },
  )
  .transform(({ period, until, ...rest }) => ({
    ...rest,
    period: period ?? (until === null ? 'indefinite' : 'date'),
    ...(typeof until === 'string' && { until }),
  }));
export type SuspendMemberRequest = z.input<typeof SuspendMemberRequest>;

/** `details` of 403 MEMBER_SUSPENDED, and GET /api/me's `suspension`: why, and until when (null: until lifted). */
export const SuspensionDetails = z.object({ reason: z.string(), until: z.string().nullable() });
export type SuspensionDetails = z.infer<typeof SuspensionDetails>;

/** A post or comment staff hid, as its author and staff see it (everyone else does not see it at all). */
export const HiddenMark = z.object({ reason: z.string(), hiddenAt: z.string() });
export type HiddenMark = z.infer<typeof HiddenMark>;

// ── the queue ──────────────────────────────────────────────────────────────

export const QUEUE_STATUSES = ['open', 'handled'] as const;

/** GET /api/admin/reports?status=open|handled&page=n (ADMIN_PAGE_SIZE a page). */
export const ReportQueueQuery = z.object({
  status: z.enum(QUEUE_STATUSES, `Status must be one of ${QUEUE_STATUSES.join(', ')}`).default('open'),
  page: pageNumber.default(1),
});
export type ReportQueueQuery = z.infer<typeof ReportQueueQuery>;

/** A person as the queue shows them; `email` for admins only; `_id` null once erased. */
const QueuePerson = z.object({ _id: z.string().nullable(), name: z.string(), email: z.string().optional(), photoURL: z.string() });

/** How staff handled an item's reports: what they did, who, when, and the reason they gave. */
export const HANDLED_ACTIONS = ['dismissed', 'hidden', 'deleted', 'warned', 'suspended'] as const;

/**
 * One row of the queue per reported post or comment, with its reports. Open rows: the items with
 * reports since they were last handled, oldest unhandled report first. Handled rows: newest handling
 * first, with how (`handled`); every hidden post and comment is among them, reported or not, so that
 * staff can show it again.
 */
export const QueueItem = z.object({
  kind: z.enum(MODERATED_KINDS),
  _id: z.string(),
  postId: z.string(),
  /** The post's title (a comment's: its post's). */
  postTitle: z.string(),
  /** The comment's text, or the post's description. */
  text: z.string(),
  author: QueuePerson.extend({ role: z.enum(ROLES), suspendedUntil: z.string().nullable().optional() }),
  /** The oldest QUEUE_REPORTS_SHOWN reports of the item's current round; `reportCount` counts them all. */
  reports: z.array(z.object({ reporter: QueuePerson, feedback: z.enum(REPORT_FEEDBACK), reportedAt: z.string() })),
  reportCount: z.number().int(),
  /** null for an item staff hid without a report (hiding is always among the handled rows). */
  firstReportedAt: z.string().nullable(),
  /** The item now: hidden (with the reason), deleted, and for a post locked. */
  hidden: z.boolean(),
  deleted: z.boolean(),
  /** Its author was warned about it (once per item). */
  warned: z.boolean(),
  handled: z.object({ action: z.enum(HANDLED_ACTIONS), byName: z.string(), at: z.string(), reason: z.string().optional() }).optional(),
});
export type QueueItem = z.infer<typeof QueueItem>;

export const ReportQueue = z.object({ items: z.array(QueueItem), totalCount: z.number().int(), page: z.number().int() });
export type ReportQueue = z.infer<typeof ReportQueue>;
