import type { CommandAccepted, ReportPostRequest } from '@forum/contracts';
import { contract } from '../../../lib/contract';
import { api } from '../../../lib/api';

/** POST /api/posts/:id/report {feedback}; a second report by the same reader is 409 ALREADY_REPORTED, one's own post 422 OWN_POST_REPORT. */
export const reportPostApi = api.injectEndpoints({
  endpoints: (build) => ({
    reportPost: build.mutation<CommandAccepted, { postId: string } & ReportPostRequest>({
      query: ({ postId, feedback }) => ({ url: `posts/${encodeURIComponent(postId)}/report`, method: 'POST', body: { feedback } }),
      responseSchema: contract('CommandAccepted'),
    }),
  }),
});

export const { useReportPostMutation } = reportPostApi;
