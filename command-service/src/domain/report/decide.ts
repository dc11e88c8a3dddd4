import { ErrorCode, type CommentReportEvent, type PostReportEvent, type ReportFeedback } from '@forum/contracts';
import { Conflict, NotFound, RuleBroken } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import type { CommentState } from '../comment/comment.ts';
import type { Author } from '../post/decide.ts';
import { postSeenBy, type PostState } from '../post/post.ts';
import type { ReportState } from './report.ts';

/**
 * Rules enforced here (spec §2 Post Comments, §3 Comment report; issue "whole forum on the API", Reports):
 * - the comment exists, is not removed, and its post is not deleted; for a reporter who is not staff,
 *   neither the comment nor its post is hidden (404: they cannot see it);
 * - nobody reports their own comment (issue #28, as Discourse and NodeBB refuse it): 422 OWN_COMMENT_REPORT;
 * - a user reports a comment once (409 ALREADY_REPORTED), decided on the (comment, reporter) stream;
 * - the reporter's name, email and photo come from their forum record (the spec's reporterEmail is ignored),
 *   the feedback is one of REPORT_FEEDBACK (checked at the edge and by the event schema);
 * - a post is reported by the same rules (issue #43): a live post the reporter can see, not their own (422
 *   OWN_POST_REPORT), once (409 ALREADY_REPORTED), on the (post, reporter) stream.
 */
export type ReportComment = {
  type: 'ReportComment';
  data: { commentId: string; reporter: Author; reporterIsStaff: boolean; feedback: ReportFeedback; comment: CommentState; post: PostState };
};
export type ReportCommand = ReportComment;
export type ReportPost = {
  type: 'ReportPost';
  data: { postId: string; reporter: Author; reporterIsStaff: boolean; feedback: ReportFeedback; post: PostState };
};

export class AlreadyReportedError extends Conflict {
  constructor(what: 'comment' | 'post') {
    super(`You have already reported this ${what}`, ErrorCode.ALREADY_REPORTED);
  }
}

export class OwnPostReportError extends RuleBroken {
  constructor() {
    super(ErrorCode.OWN_POST_REPORT, 'You cannot report your own post.');
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

/** What a report says of its reporter (their forum record now), their feedback and when. */
const reportBy = (reporter: Author, feedback: ReportFeedback, meta: CommandMeta) => ({
  reporterId: reporter.id,
  reporterName: reporter.name,
  reporterEmail: reporter.email,
  reporterPhoto: reporter.photo,
  feedback,
  reportedAt: meta.now.toISOString(),
});

function reportComment(command: ReportComment, state: ReportState, meta: CommandMeta): CommentReportEvent[] {
  const { commentId, reporter, reporterIsStaff, feedback, comment } = command.data;
  const post = postSeenBy(command.data.post, reporterIsStaff);
  if (comment.status !== 'added' || post.status !== 'created' || (comment.hidden && !reporterIsStaff)) throw new NotFound('No such comment');
  if (comment.authorId === reporter.id) throw new OwnCommentReportError();
  if (state.status === 'reported') throw new AlreadyReportedError('comment');
  return [
    {
      type: 'CommentReported',
      data: { commentId, postId: comment.postId, ...reportBy(reporter, feedback, meta) },
    },
  ];
}

/** A member's report of a post (decided on their own (post, reporter) stream). */
export function decidePostReport(command: ReportPost, state: ReportState, meta: CommandMeta): PostReportEvent[] {
  const { postId, reporter, reporterIsStaff, feedback } = command.data;
  const post = postSeenBy(command.data.post, reporterIsStaff);
  if (post.status !== 'created') throw new NotFound('No such post');
  if (post.authorId === reporter.id) throw new OwnPostReportError();
  if (state.status === 'reported') throw new AlreadyReportedError('post');
  return [
    {
      type: 'PostReported',
      data: { postId, ...reportBy(reporter, feedback, meta) },
    },
  ];
}
