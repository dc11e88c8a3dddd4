import { isStaffRole, type ReportFeedback } from '@forum/contracts';
import { authorOf, type Identity } from '../actor.ts';
import { commentStreamOf } from '../comment/comment.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { initialPostState, postStreamOf } from '../post/post.ts';
import { decide, decidePostReport } from './decide.ts';
import { commentReportStreamOf, postReportStreamOf } from './report.ts';

/** The commands decided on one user's report of a comment or a post. */
export function createReportCommands({ handle, handleMany }: CommandHandler, cost: Costs) {
  return {
    /** POST /api/comments/:commentId/report: the comment's post is read through the comment. */
    reportComment: (who: Identity, input: { commentId: string; feedback: ReportFeedback }, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { who, meta, idempotency, cost: cost('report', who.userId), refusedWhileSuspended: true },
        {
          read: async (reader) => {
            const [comment, report] = await Promise.all([
              reader.read(commentStreamOf(input.commentId)),
              reader.read(commentReportStreamOf(input.commentId, who.userId)),
            ]);
            const post = comment.state.status === 'none' ? initialPostState : (await reader.read(postStreamOf(comment.state.postId))).state;
            return { comment: comment.state, post, report };
          },
          decide: ({ comment, post, report }, actor) => [
            {
              to: report,
              events: decide(
                { type: 'ReportComment', data: { ...input, reporter: authorOf(actor), reporterIsStaff: isStaffRole(actor.role), comment, post } },
                report.state,
                meta,
              ),
            },
          ],
          answer: acceptedAs(input.commentId),
        },
      ),

    /** POST /api/posts/:id/report (issue #43). */
    reportPost: (who: Identity, input: { postId: string; feedback: ReportFeedback }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency, cost: cost('report', who.userId), refusedWhileSuspended: true },
        {
          stream: postReportStreamOf(input.postId, who.userId),
          given: { post: postStreamOf(input.postId) },
          decide: (report, { post, actor }) =>
            decidePostReport(
              { type: 'ReportPost', data: { ...input, reporter: authorOf(actor), reporterIsStaff: isStaffRole(actor.role), post } },
              report,
              meta,
            ),
          answer: acceptedAs(input.postId),
        },
      ),
  };
}
