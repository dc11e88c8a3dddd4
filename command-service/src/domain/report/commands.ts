import type { ReportFeedback } from '@forum/contracts';
import { authorOf, type Identity } from '../actor.ts';
import { commentStreamOf } from '../comment/comment.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import type { Costs } from '../limits.ts';
import { initialPostState, postStreamOf } from '../post/post.ts';
import { decide } from './decide.ts';
import { commentReportStreamOf } from './report.ts';

/** The commands decided on one user's report of a comment. */
export function createReportCommands({ handleMany }: CommandHandler, cost: Costs) {
  return {
    /** POST /api/comments/:commentId/report: the comment's post is read through the comment. */
    reportComment: (who: Identity, input: { commentId: string; feedback: ReportFeedback }, meta: CommandMeta, idempotency?: Idempotency) =>
      handleMany(
        { who, meta, idempotency, cost: cost('report', who.userId) },
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
            { to: report, events: decide({ type: 'ReportComment', data: { ...input, reporter: authorOf(actor), comment, post } }, report.state, meta) },
          ],
          answer: acceptedAs(input.commentId),
        },
      ),
  };
}
