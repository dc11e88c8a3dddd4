import { CommentAdded, CommentEdited, CommentRemoved, CommentReported } from './comment.ts';
import { notificationsStream } from './notification.ts';
import { postStream } from './post.ts';
import { userStream } from './user.ts';
import { VoteCast } from './vote.ts';

/**
 * Which events of the log make up a history of the console and `forumctl history`
 * (docs/operations/history.md): every event any of its criteria selects, in log order.
 */
export interface HistorySelection {
  /** The events this actor caused (`metadata.actorId`). */
  readonly actorId?: string;
  /** Every event of these streams. */
  readonly streamIds?: readonly string[];
  /** The events of POST_HISTORY_TYPES that name this post in `data.postId`. */
  readonly postId?: string;
}

/**
 * The events outside a post's own stream that belong to its history: its comments' (added, edited,
 * removed), votes' and reports'. Each names the post in `data.postId` (a plain id, never sealed); the event store
 * indexes that field for these types alone.
 */
export const POST_HISTORY_TYPES = [CommentAdded.type, CommentEdited.type, CommentRemoved.type, CommentReported.type, VoteCast.type] as const;

/**
 * A user's history: what they did (every event they were the actor of) and what was done about
 * them, which the forum keeps in their own streams (role, membership, account, profile, the
 * posts they author; the moderators' warnings in their notifications).
 */
export const userHistory = (userId: string): HistorySelection => ({ actorId: userId, streamIds: [userStream(userId), notificationsStream(userId)] });

/** A post's history: its own stream, and its comments, votes and reports. */
export const postHistory = (postId: string): HistorySelection => ({ streamIds: [postStream(postId)], postId });
