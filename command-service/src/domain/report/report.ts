import { commentReportStream, postReportStream, type CommentReportEvent, type PostReportEvent, type ReportFeedback } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/** One user's report of one comment (stream `report-<commentId>-<reporterId>`). */
export type ReportState = { readonly status: 'none' } | { readonly status: 'reported'; readonly feedback: ReportFeedback };

export const initialReportState: ReportState = { status: 'none' };

export function evolve(state: ReportState, event: CommentReportEvent): ReportState {
  switch (event.type) {
    case 'CommentReported':
      return { status: 'reported', feedback: event.data.feedback };
    default:
      return unreachable(event.type);
  }
}

/** One user's report of a comment, as the command handler reads it. */
export const commentReportStreamOf = (commentId: string, userId: string): Stream<ReportState, CommentReportEvent> => ({
  id: commentReportStream(commentId, userId),
  evolve,
  initialState: initialReportState,
});

/** One user's report of one post (stream `post-report-<postId>-<reporterId>`), as their report of a comment. */
export function evolvePostReport(state: ReportState, event: PostReportEvent): ReportState {
  switch (event.type) {
    case 'PostReported':
      return { status: 'reported', feedback: event.data.feedback };
    default:
      return unreachable(event.type);
  }
}

/** One user's report of a post, as the command handler reads it. */
export const postReportStreamOf = (postId: string, userId: string): Stream<ReportState, PostReportEvent> => ({
  id: postReportStream(postId, userId),
  evolve: evolvePostReport,
  initialState: initialReportState,
});
