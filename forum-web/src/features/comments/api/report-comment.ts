import type { CommandAccepted, ReportCommentRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** POST /api/comments/:commentId/report {feedback}; a second report by the same reader is 409 ALREADY_REPORTED. */
export const reportCommentApi = api.injectEndpoints({
  endpoints: (build) => ({
    reportComment: build.mutation<CommandAccepted, { commentId: string } & ReportCommentRequest>({
      query: ({ commentId, feedback }) => ({ url: `comments/${encodeURIComponent(commentId)}/report`, method: 'POST', body: { feedback } }),
      responseSchema: contract('CommandAccepted'),
    }),
  }),
});

export const { useReportCommentMutation } = reportCommentApi;
