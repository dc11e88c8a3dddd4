import { commentReportStream, type CommentReportEvent, type ReportFeedback } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { commentReportStream };

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
