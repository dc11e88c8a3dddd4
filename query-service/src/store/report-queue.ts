import { ADMIN_PAGE_SIZE, QUEUE_REPORTS_SHOWN, type QUEUE_STATUSES, type ReportFeedback, type Role } from '@forum/contracts';
import type { Knex } from '@forum/platform';

/** A row of the moderators' queue with what the read models say of its item now (see report_queue's projection). */
export interface QueueRow {
  kind: 'post' | 'comment';
  id: string;
  post_id: string;
  round: number;
  open: boolean;
  opened_at: Date | null;
  handled_action: string | null;
  handled_by_name: string | null;
  handled_at: Date | null;
  handled_reason: string | null;
  hidden: boolean;
  deleted: boolean;
  warned: boolean;
  post_title: string | null;
  text: string | null;
  author_id: string | null;
  author_name: string | null;
  author_email: string | null;
  author_photo: string | null;
  author_role: Role | null;
  author_suspended: boolean | null;
  author_suspended_until: Date | null;
}

export interface QueueReportRow {
  kind: 'post' | 'comment';
  id: string;
  reporter_id: string;
  reporter_name: string | null;
  reporter_email: string | null;
  reporter_photo: string | null;
  feedback: ReportFeedback;
  reported_at: Date;
  /** How many reports the item has in its round (each of its rows says it). */
  count: number;
}

/**
 * The queue's reads: a page of open items (oldest unhandled report first) or of handled ones
 * (newest handling first), each with its item's title, text and author as the read models have
 * them now (a deleted item's are gone), and the reports of the item's current round with their
 * reporters as they are now (an erased one is no longer a member).
 */
export function createReportQueueStore(db: Knex) {
  return {
    async page(status: (typeof QUEUE_STATUSES)[number], page: number): Promise<{ rows: QueueRow[]; reports: QueueReportRow[]; total: number }> {
      const [where, order] =
        status === 'open' ? ['q.open', 'q.opened_at, q.kind, q.id'] : ['NOT q.open AND q.handled_at IS NOT NULL', 'q.handled_at DESC, q.kind, q.id'];
      const { rows } = await db.raw<{ rows: (QueueRow & { total: number })[] }>(
        `SELECT count(*) OVER ()::integer AS total, q.kind, q.id, q.post_id, q.round, q.open, q.opened_at, q.handled_action, h.name AS handled_by_name, q.handled_at,
                q.handled_reason, q.hidden, q.deleted, q.warned, p.title AS post_title,
                CASE q.kind WHEN 'post' THEN p.description ELSE c.text END AS text,
                a.id AS author_id, a.name AS author_name, a.email AS author_email, a.photo_url AS author_photo, a.role AS author_role,
                a.suspended AS author_suspended, a.suspended_until AS author_suspended_until
         FROM read.queue_items q
         LEFT JOIN read.posts p ON p.id = q.post_id
         LEFT JOIN read.comments c ON q.kind = 'comment' AND c.id = q.id
         LEFT JOIN read.users a ON a.id = coalesce(CASE q.kind WHEN 'post' THEN p.author_id ELSE c.author_id END, q.author_id)
         LEFT JOIN read.users h ON h.id = q.handled_by
         WHERE ${where}
         ORDER BY ${order} LIMIT ? OFFSET ?`,
        [ADMIN_PAGE_SIZE, (page - 1) * ADMIN_PAGE_SIZE],
      );
      const total =
        rows[0]?.total ??
        Number((await db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::integer AS n FROM read.queue_items q WHERE ${where}`)).rows[0]?.n ?? 0);
      if (rows.length === 0) return { rows: [], reports: [], total };
      // each item's oldest QUEUE_REPORTS_SHOWN reports, with how many it has: a row stays bounded however many report it
      const { rows: reports } = await db.raw<{ rows: QueueReportRow[] }>(
        `SELECT kind, id, reporter_id, reporter_name, reporter_email, reporter_photo, feedback, reported_at, count
         FROM (SELECT r.kind, r.id, r.reporter_id, u.name AS reporter_name, u.email AS reporter_email, u.photo_url AS reporter_photo, r.feedback, r.reported_at,
                      row_number() OVER (PARTITION BY r.kind, r.id ORDER BY r.reported_at, r.reporter_id) AS n,
                      count(*) OVER (PARTITION BY r.kind, r.id)::integer AS count
               FROM jsonb_to_recordset(?::jsonb) AS x(kind text, id uuid, round integer)
               JOIN read.queue_reports r ON (r.kind, r.id, r.round) = (x.kind, x.id, x.round)
               LEFT JOIN read.users u ON u.id = r.reporter_id) shown
         WHERE n <= ?
         ORDER BY reported_at, reporter_id`,
        [JSON.stringify(rows.map(({ kind, id, round }) => ({ kind, id, round }))), QUEUE_REPORTS_SHOWN],
      );
      return { rows: rows.map(({ total: _, ...row }) => row), reports, total };
    },
  };
}
export type ReportQueueStore = ReturnType<typeof createReportQueueStore>;
