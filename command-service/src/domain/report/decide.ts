import { ErrorCode, type CommentReportEvent, type ReportFeedback } from '@forum/contracts';
import { Conflict, NotFound, RuleBroken } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import type { CommentState } from '../comment/comment.ts';
import type { Author } from '../post/decide.ts';
import type { PostState } from '../post/post.ts';
import type { ReportState } from './report.ts';

/**
 * Rules enforced here (spec §2 Post Comments, §3 Comment report; issue "whole forum on the API", Reports):
 * - the comment exists, is not removed, and its post is not deleted;
 * - nobody reports their own comment (issue #28, as Discourse and NodeBB refuse it): 422 OWN_COMMENT_REPORT;
 * - a user reports a comment once (409 ALREADY_REPORTED), decided on the (comment, reporter) stream;
 * - the reporter's name, email and photo come from their forum record (the spec's reporterEmail is ignored),
 *   the feedback is one of REPORT_FEEDBACK (checked at the edge and by the event schema).
 */
export type ReportComment = {
  type: 'ReportComment';
  data: { commentId: string; reporter: Author; feedback: ReportFeedback; comment: CommentState; post: PostState };
};
export type ReportCommand = ReportComment;

export class AlreadyReportedError extends Conflict {
  constructor() {
    super('You have already reported this comment', ErrorCode.ALREADY_REPORTED);
  }
}

export class OwnCommentReportError extends RuleBroken {
  constructor() {
    super(ErrorCode.OWN_COMMENT_REPORT, 'You cannot report your own comment.');
  }
}

export function decide(command: ReportCommand, state: ReportState, meta: CommandMeta): CommentReportEvent[] {
  switch (command.type) {
    case 'ReportComment':
      return reportComment(command, state, meta);
    default:
      return unreachable(command.type);
  }
}

function reportComment(command: ReportComment, state: ReportState, meta: CommandMeta): CommentReportEvent[] {
  const { commentId, reporter, feedback, comment, post } = command.data;
  if (comment.status !== 'added' || post.status !== 'created') throw new NotFound('No such comment');
  if (comment.authorId === reporter.id) throw new OwnCommentReportError();
  if (state.status === 'reported') throw new AlreadyReportedError();
  return [
    {
      type: 'CommentReported',
      data: {
        commentId,
        postId: comment.postId,
        reporterId: reporter.id,
        reporterName: reporter.name,
        reporterEmail: reporter.email,
        reporterPhoto: reporter.photo,
        feedback,
        reportedAt: meta.now.toISOString(),
      },
    },
  ];
}
