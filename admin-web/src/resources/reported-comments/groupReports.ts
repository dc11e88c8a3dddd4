import { COMMENT_PREVIEW_LENGTH, cutText, type ReportedComment } from '@forum/contracts';

/** A row of GET /api/admin/reported-comments as react-admin holds it: one report (`id` is its reportId, `_id` the comment's). */
export type ReportRecord = ReportedComment & { id: string };

export type Report = Pick<ReportedComment, 'reportId' | 'reporter' | 'feedback' | 'reportedAt'>;

/** One reported comment with every open report of it that was read (the console's row: one Delete settles them all). */
export interface ReportedCommentGroup {
  /** the comment's id */
  id: string;
  text: string;
  postId: string;
  author: ReportedComment['author'];
  /** in the order read (newest first, unless the list is sorted the other way) */
  reports: Report[];
  /** the comment's open reports, counted by the server (more than `reports` when some were not read) */
  reportCount: number;
  /** its author was warned about it (a comment is warned about once) */
  warned: boolean;
}

export const FEEDBACK_LABELS: Record<ReportedComment['feedback'], string> = {
  spam: 'Spam',
  inappropriate: 'Inappropriate',
  offensive: 'Offensive',
};

/** The API's rows, one per report, as one row per comment, in the order each comment first appears. */
export function groupReports(rows: readonly ReportedComment[]): ReportedCommentGroup[] {
  const groups = new Map<string, ReportedCommentGroup>();
  for (const row of rows) {
    const report: Report = { reportId: row.reportId, reporter: row.reporter, feedback: row.feedback, reportedAt: row.reportedAt };
    const group = groups.get(row._id);
    if (group) {
      if (!group.reports.some((seen) => seen.reportId === row.reportId)) group.reports.push(report);
      group.reportCount = Math.max(group.reportCount, row.reportCount, group.reports.length);
      group.warned ||= row.warned;
    } else {
      groups.set(row._id, {
        id: row._id,
        text: row.text,
        postId: row.postId,
        author: row.author,
        reports: [report],
        reportCount: Math.max(row.reportCount, 1),
        warned: row.warned,
      });
    }
  }
  return [...groups.values()];
}

/** A reported comment's start (the spec's preview length): what its row's buttons are named after, with its author. */
export const commentStart = (comment: Pick<ReportedCommentGroup, 'text'>) => cutText(comment.text, COMMENT_PREVIEW_LENGTH).preview;
