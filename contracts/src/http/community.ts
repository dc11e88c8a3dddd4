import { z } from 'zod';
import { HiddenMark } from './moderation.ts';
import { COMMENT_MAX, REPORT_FEEDBACK, ROLES, SEARCH_QUERY_MAX, WARNING_REASON_MAX } from '../constants.ts';
import { VOTES } from '../events/vote.ts';
import { droppingSpecFields, emailText, pageNumber, text, type TextRule } from '../text-policy.ts';
import { EDIT_REASON_RULE, PostListItem, tagName } from './posts.ts';

// ── votes ────────────────────────────────────────────────────────────────

/** PUT /api/posts/:id/vote: sets the caller's vote; the same vote again changes nothing. */
export const SetVoteRequest = z.strictObject({ vote: z.enum(VOTES, 'Vote must be up, down or none') });
export type SetVoteRequest = z.infer<typeof SetVoteRequest>;

const change = z.union([z.literal(-1), z.literal(0), z.literal(1)], 'Must be -1, 0 or 1');
/** PATCH /api/posts/:id/vote (the spec's call): a change that must be legal from the caller's current vote (spec §4). */
export const ChangeVoteRequest = z.strictObject({ likeChange: change, dislikeChange: change });
export type ChangeVoteRequest = z.infer<typeof ChangeVoteRequest>;

/** What both vote calls answer: the post, the event's position (absent when nothing changed) and the caller's vote now. */
export const VoteAccepted = z.object({ id: z.string(), position: z.string().optional(), vote: z.enum(VOTES) });
export type VoteAccepted = z.infer<typeof VoteAccepted>;

// ── comments ─────────────────────────────────────────────────────────────

/** A comment's text: the request's schema, the comment decider and the comment form's counter go by this one rule. */
export const COMMENT_RULE: TextRule = { kind: 'body', label: 'Comment', max: COMMENT_MAX, required: 'Comment must not be empty' };

/**
 * POST /api/comments. The spec's client also sends authorName, authorPhoto and
 * createdAt: they come from the caller's forum record and the server clock.
 */
export const AddCommentRequest = droppingSpecFields(
  ['authorName', 'authorPhoto', 'createdAt'],
  z.strictObject({
    postId: z.string().uuid('Not a post id'),
    text: text(COMMENT_RULE),
  }),
);
export type AddCommentRequest = z.infer<typeof AddCommentRequest>;

/** PATCH /api/comments/:commentId: the new text, by the same rule as adding; a reason as for a post's edit. */
export const EditCommentRequest = z.strictObject({ text: text(COMMENT_RULE), reason: text(EDIT_REASON_RULE).optional() });
export type EditCommentRequest = z.infer<typeof EditCommentRequest>;

/**
 * GET /api/comments/:postId items. authorEmail only for the comment's author and admins; byMe
 * (the caller wrote it: no report of one's own comment) and reportedByMe (the caller reported it
 * already: no second report) only when a token is sent.
 */
export const CommentItem = z.object({
  _id: z.string(),
  postId: z.string(),
  text: z.string(),
  authorName: z.string(),
  /** As a post's (PostListItem). */
  authorId: z.string().nullable(),
  authorEmail: z.string().optional(),
  authorPhoto: z.string(),
  createdAt: z.string(),
  /** As a post's (PostListItem). */
  editedAt: z.string().optional(),
  revisionCount: z.number().int(),
  byMe: z.boolean().optional(),
  reportedByMe: z.boolean().optional(),
  /** Hidden by staff (issue #43): listed only to its author and staff, with this mark. */
  hidden: HiddenMark.optional(),
});
export type CommentItem = z.infer<typeof CommentItem>;

export const PostIdOfCommentsParams = z.object({ postId: z.string().uuid('Not a post id') });
export const CommentIdParams = z.object({ commentId: z.string().uuid('Not a comment id') });

// ── reports and moderation ───────────────────────────────────────────────

/** POST /api/comments/:commentId/report. The spec's reporterEmail is the caller's, from the token. */
export const ReportCommentRequest = droppingSpecFields(
  ['reporterEmail'],
  z.strictObject({
    feedback: z.enum(REPORT_FEEDBACK, `Feedback must be one of ${REPORT_FEEDBACK.join(', ')}`),
  }),
);
export type ReportCommentRequest = z.infer<typeof ReportCommentRequest>;

const Person = z.object({ name: z.string(), email: z.string(), photoURL: z.string() });

/**
 * GET /api/admin/reported-comments: one row per open report, newest first.
 * `_id` is the reported comment's id (what Delete and the post link use, as in
 * the spec's client); `reportId` tells rows of one comment apart;
 * `reportCount` is the number of open reports of that comment.
 */
export const ReportedComment = z.object({
  _id: z.string(),
  reportId: z.string(),
  text: z.string(),
  postId: z.string(),
  author: Person,
  reporter: Person,
  feedback: z.enum(REPORT_FEEDBACK),
  reportedAt: z.string(),
  reportCount: z.number().int(),
  /** The comment's author was warned about it (a comment is warned about once). */
  warned: z.boolean(),
});
export type ReportedComment = z.infer<typeof ReportedComment>;

/** POST /api/admin/warn-user/:authorEmail (the spec sends no body: everything is optional). */
export const WarnUserRequest = z
  .strictObject({
    reason: text({ kind: 'body', label: 'Reason', max: WARNING_REASON_MAX, required: 'Reason must not be empty' }).optional(),
    commentId: z.string().uuid('Not a comment id').optional(),
  })
  .default({});
export type WarnUserRequest = z.infer<typeof WarnUserRequest>;

export const AuthorEmailParams = z.object({ authorEmail: emailText('Email', { invalid: 'Not an email address' }) });

// ── leaderboard, profile, search ─────────────────────────────────────────

/**
 * GET /api/users/top-voted items (no email: the list is public). `hasProfile`: whether `_id` has a public
 * profile to link to (false once they are erased: their name reads 'Deleted user').
 */
export const TopVotedUser = z.object({ _id: z.string(), name: z.string(), photoURL: z.string(), totalVote: z.number().int(), hasProfile: z.boolean() });
export type TopVotedUser = z.infer<typeof TopVotedUser>;

export const BADGES = ['Gold', 'Bronze'] as const;

/** GET /api/user-profile/:email. `email` only for the user themself and admins. */
export const UserProfile = z.object({
  user: z.object({
    _id: z.string(),
    name: z.string(),
    photoURL: z.string(),
    role: z.enum(ROLES),
    isMember: z.boolean(),
    badge: z.enum(BADGES),
    email: z.string().optional(),
  }),
  /** live posts; comments the user wrote; comments and up votes their live posts received */
  stats: z.object({ posts: z.number().int(), comments: z.number().int(), commentsReceived: z.number().int(), upVotes: z.number().int() }),
  recentPosts: z.array(PostListItem),
});
export type UserProfile = z.infer<typeof UserProfile>;

/** The words of a full-text search (`q`): the API's check, and the search form's before it asks. */
export const SEARCH_TEXT_RULE: TextRule = { kind: 'line', label: 'Search text', max: SEARCH_QUERY_MAX, required: 'Search text must not be empty' };

/**
 * GET /api/posts/search?tag=…|q=…[&page=n]. `tag` matches a post's tag ignoring
 * case; `q` is full-text over title and description (web-search syntax:
 * words, "quoted phrases", -excluded), ranked. Both may be combined.
 */
export const SearchPostsQuery = z
  .object({
    tag: tagName('Tag').optional(),
    q: text(SEARCH_TEXT_RULE).optional(),
    page: pageNumber.optional(),
  })
  .refine((query) => query.tag !== undefined || query.q !== undefined, { message: 'Send tag, q or both', path: ['_'] });
export type SearchPostsQuery = z.infer<typeof SearchPostsQuery>;
