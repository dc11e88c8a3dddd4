import { DELETED_USER_NAME, HANDLED_ACTIONS, ReportQueueQuery, type QueueItem, ReportQueue } from '@forum/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { QueueReportRow, QueueRow, ReportQueueStore } from '../store/report-queue.ts';
import { suspensionAt } from '../store/users.ts';
import { staffOf, staffOnly } from './access.ts';

type Person = { _id: string | null; name: string; email?: string; photoURL: string };

/** A person as the queue shows them: `email` for admins only; `_id` null once they are no longer a member (erased). */
const person = (id: string | null, name: string | null, email: string | null, photo: string | null, withEmail: boolean): Person =>
  id === null || name === null
    ? { _id: null, name: DELETED_USER_NAME, photoURL: '' }
    : { _id: id, name, ...(withEmail && email !== null && { email }), photoURL: photo ?? '' };

function queueItem(row: QueueRow, reports: readonly QueueReportRow[], withEmail: boolean, now: Date): QueueItem {
  const suspension =
    row.author_suspended === null
      ? null
      : suspensionAt({ suspended: row.author_suspended, suspension_reason: '', suspended_until: row.author_suspended_until }, now);
  const action = HANDLED_ACTIONS.find((known) => known === row.handled_action);
  return {
    kind: row.kind,
    _id: row.id,
    postId: row.post_id,
    postTitle: row.post_title ?? '',
    text: row.text ?? '',
    author: {
      ...person(row.author_id, row.author_name, row.author_email, row.author_photo, withEmail),
      role: row.author_role ?? 'user',
      ...(suspension && { suspendedUntil: suspension.until }),
    },
    reports: reports.map((report) => ({
      reporter: person(report.reporter_id, report.reporter_name, report.reporter_email, report.reporter_photo, withEmail),
      feedback: report.feedback,
      reportedAt: report.reported_at.toISOString(),
    })),
    reportCount: reports[0]?.count ?? 0,
    firstReportedAt: (row.opened_at ?? reports[0]?.reported_at)?.toISOString() ?? null,
    hidden: row.hidden,
    deleted: row.deleted,
    warned: row.warned,
    ...(!row.open &&
      action &&
      row.handled_at && {
        handled: {
          action,
          byName: row.handled_by_name ?? DELETED_USER_NAME,
          at: row.handled_at.toISOString(),
          ...(row.handled_reason !== null && { reason: row.handled_reason }),
        },
      }),
  };
}

/**
 * The moderators' reads (issue #43, docs/moderation.md): GET /api/admin/reports, the queue of
 * reported posts and comments, open or handled; staff only (401 without a token, 403 for members),
 * members' emails for admins only. `clock`: which authors' suspensions are in force.
 */
export function moderationRoutes(queue: ReportQueueStore, clock: () => Date = () => new Date()): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get(
      '/admin/reports',
      { preValidation: staffOnly, schema: { answers: { 200: { body: ReportQueue } }, querystring: ReportQueueQuery } },
      async (request) => {
        const withEmail = staffOf(request).role === 'admin';
        const { status, page } = request.query;
        const { rows, reports, total } = await queue.page(status, page);
        const now = clock();
        const body: ReportQueue = {
          items: rows.map((row) =>
            queueItem(
              row,
              reports.filter((report) => report.kind === row.kind && report.id === row.id),
              withEmail,
              now,
            ),
          ),
          totalCount: total,
          page,
        };
        return body;
      },
    );
    done();
  };
}
