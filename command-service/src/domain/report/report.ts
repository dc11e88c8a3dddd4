import { commentReportStream, type CommentReportEvent, type ReportFeedback } from '@forum/contracts';
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
