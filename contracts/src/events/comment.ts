import { z } from 'zod';
import { REPORT_FEEDBACK } from '../constants.ts';
import { defineEvent, isoDate } from './define.ts';

export type ReportFeedback = (typeof REPORT_FEEDBACK)[number];

export const commentStream = (commentId: string) => `comment-${commentId}`;

/**
 * One stream per (comment, reporter): "a user reports a comment once" is decided
 * there, so two reports of one user at once append one, and reports of
 * different users never contend.
 */
export const commentReportStream = (commentId: string, reporterId: string) => `report-${commentId}-${reporterId}`;

export const CommentAdded = defineEvent(
  'CommentAdded',
  1,
  z.object({
    commentId: z.string().uuid(),
    postId: z.string().uuid(),
    text: z.string(),
    authorId: z.string(),
    authorName: z.string(),
    authorEmail: z.string(),
    authorPhoto: z.string(),
    createdAt: isoDate,
  }),
);
export type CommentAdded = { type: 'CommentAdded'; data: z.infer<typeof CommentAdded.schema> };

/** Moderation: the comment leaves every list and count, and its reports are resolved. */
export const CommentRemoved = defineEvent(
  'CommentRemoved',
  1,
  z.object({ commentId: z.string().uuid(), postId: z.string().uuid(), authorId: z.string(), removedBy: z.string(), removedAt: isoDate }),
);
export type CommentRemoved = { type: 'CommentRemoved'; data: z.infer<typeof CommentRemoved.schema> };

/** The comment's text after an edit, by its author or staff; `revision` and `reason` as in PostEdited. */
export const CommentEdited = defineEvent(
  'CommentEdited',
  1,
  z.object({
    commentId: z.string().uuid(),
    postId: z.string().uuid(),
    authorId: z.string(),
    editorId: z.string(),
    text: z.string(),
    reason: z.string().optional(),
    revision: z.number().int().positive(),
    editedAt: isoDate,
  }),
);
export type CommentEdited = { type: 'CommentEdited'; data: z.infer<typeof CommentEdited.schema> };

export type CommentEvent = CommentAdded | CommentRemoved | CommentEdited;

/** On the (comment, reporter) stream. The reporter's name, email and photo come from their forum record. */
export const CommentReported = defineEvent(
  'CommentReported',
  1,
  z.object({
    commentId: z.string().uuid(),
    postId: z.string().uuid(),
    reporterId: z.string(),
    reporterName: z.string(),
    reporterEmail: z.string(),
    reporterPhoto: z.string(),
    feedback: z.enum(REPORT_FEEDBACK),
    reportedAt: isoDate,
  }),
);
export type CommentReported = { type: 'CommentReported'; data: z.infer<typeof CommentReported.schema> };

export type CommentReportEvent = CommentReported;
