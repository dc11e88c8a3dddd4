import type { HANDLED_ACTIONS, ModeratedKind } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { defineProjection } from '../runner/projection.ts';

type HandledAction = (typeof HANDLED_ACTIONS)[number];

/**
 * The moderators' queue (issue #43, docs/moderation.md): one row per reported post or comment
 * (`items`), with its reports (`reports`). An item is open from a report on; the first of these after
 * its open reports handles them: its reports dismissed, the item hidden, deleted (a post's deletion
 * takes its comments' items with it), its author warned about it, or suspended about it. A later
 * report opens it again, as a new round: the queue shows the reports of the item's current round.
 * Hiding is always recorded as the item's latest handling, reported or not: every hidden post and
 * comment is among the handled rows, where staff show it again (the console lists hidden content
 * nowhere else).
 * Its marks (hidden, deleted, warned) follow the item whether or not it is open. Only ids are kept:
 * the read side joins the posts', comments' and users' read models for titles, texts and names,
 * so an edit, a rename or an erasure reaches the queue. A deleted item is remembered (a report that
 * raced its deletion opens nothing).
 */
export const reportQueueProjection = defineProjection({
  name: 'report_queue',
  // what each version changed: docs/projections-versions.md
  version: 2,
  types: [
    'PostReported',
    'CommentReported',
    'ReportsDismissed',
    'PostHidden',
    'PostUnhidden',
    'CommentHidden',
    'CommentUnhidden',
    'PostDeleted',
    'CommentRemoved',
    'UserWarned',
    'MemberSuspended',
  ],
  // ids, reasons and times only: no personal data is read
  opens: [],
  exposes: { queue_items: 'items', queue_reports: 'reports' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS items (
        kind text NOT NULL,
        id uuid NOT NULL,
        post_id uuid NOT NULL,
        -- the content's author, once an event named them (the read side prefers the content's own row)
        author_id text,
        -- the reports shown are this round's; a report after a handling starts the next
        round integer NOT NULL DEFAULT 0,
        open boolean NOT NULL DEFAULT false,
        -- the oldest report of the open round
        opened_at timestamptz,
        handled_action text,
        handled_by text,
        handled_at timestamptz,
        handled_reason text,
        hidden boolean NOT NULL DEFAULT false,
        deleted boolean NOT NULL DEFAULT false,
        warned boolean NOT NULL DEFAULT false,
        PRIMARY KEY (kind, id)
      );
      CREATE INDEX IF NOT EXISTS items_open ON items (opened_at, kind, id) WHERE open;
      CREATE INDEX IF NOT EXISTS items_handled ON items (handled_at DESC, kind, id) WHERE NOT open AND handled_at IS NOT NULL;
      CREATE INDEX IF NOT EXISTS items_of_post ON items (post_id) WHERE kind = 'comment';
      CREATE TABLE IF NOT EXISTS reports (
        kind text NOT NULL,
        id uuid NOT NULL,
        reporter_id text NOT NULL,
        feedback text NOT NULL,
        reported_at timestamptz NOT NULL,
        round integer NOT NULL,
        PRIMARY KEY (kind, id, reporter_id)
      );
    `);
  },
  async apply(trx, events) {
    // one statement or two an event: reports and staff's actions are few beside the forum's other events
    for (const event of events) {
      switch (event.type) {
        case 'PostReported': {
          const { postId, reporterId, feedback, reportedAt } = event.data;
          await report(trx, { kind: 'post', id: postId, postId }, reporterId, feedback, reportedAt);
          break;
        }
        case 'CommentReported': {
          const { commentId, postId, reporterId, feedback, reportedAt } = event.data;
          await report(trx, { kind: 'comment', id: commentId, postId }, reporterId, feedback, reportedAt);
          break;
        }
        case 'ReportsDismissed': {
          const { item, dismissedBy, dismissedAt } = event.data;
          await handle(trx, item, { action: 'dismissed', by: dismissedBy, at: dismissedAt });
          break;
        }
        case 'PostHidden':
        case 'PostUnhidden':
        case 'CommentHidden':
        case 'CommentUnhidden': {
          const { postId, authorId } = event.data;
          const item =
            'commentId' in event.data ? { kind: 'comment' as const, id: event.data.commentId, postId } : { kind: 'post' as const, id: postId, postId };
          if (event.type === 'PostHidden' || event.type === 'CommentHidden') {
            const { reason, hiddenBy, hiddenAt } = event.data;
            await handle(trx, item, { action: 'hidden', by: hiddenBy, at: hiddenAt, reason, always: true }, { authorId, hidden: true });
          } else {
            await handle(trx, item, null, { authorId, hidden: false });
          }
          break;
        }
        case 'PostDeleted': {
          const { postId, authorId, deletedBy, deletedAt } = event.data;
          const deleted = { action: 'deleted', by: deletedBy, at: deletedAt } as const;
          await handle(trx, { kind: 'post', id: postId, postId }, deleted, { authorId, deleted: true });
          // its comments go with it
          await trx.raw(
            `UPDATE items SET deleted = true, open = false,
               handled_action = CASE WHEN open THEN 'deleted' ELSE handled_action END, handled_by = CASE WHEN open THEN ? ELSE handled_by END,
               handled_at = CASE WHEN open THEN ?::timestamptz ELSE handled_at END, handled_reason = CASE WHEN open THEN NULL ELSE handled_reason END
             WHERE kind = 'comment' AND post_id = ?`,
            [deletedBy, deletedAt, postId],
          );
          break;
        }
        case 'CommentRemoved': {
          const { commentId, postId, authorId, removedBy, removedAt } = event.data;
          await handle(trx, { kind: 'comment', id: commentId, postId }, { action: 'deleted', by: removedBy, at: removedAt }, { authorId, deleted: true });
          break;
        }
        case 'UserWarned': {
          const { userId, postId, commentId, reason, warnedBy, warnedAt } = event.data;
          if (!postId && !commentId) break;
          // a warning names a comment (with its post, or alone as the first warnings did), or a post alone
          const item = commentId
            ? { kind: 'comment' as const, id: commentId, postId: postId ?? null }
            : { kind: 'post' as const, id: postId!, postId: postId! };
          await handle(trx, item, { action: 'warned', by: warnedBy, at: warnedAt, reason }, { authorId: userId, warned: true });
          break;
        }
        case 'MemberSuspended': {
          const { userId, about, reason, suspendedBy, suspendedAt } = event.data;
          if (about) await handle(trx, about, { action: 'suspended', by: suspendedBy, at: suspendedAt, reason }, { authorId: userId });
          break;
        }
        default:
          event satisfies never;
      }
    }
  },
});

interface Item {
  kind: ModeratedKind;
  id: string;
  /** null only for the first warnings about a comment, which named the comment alone. */
  postId: string | null;
}

/** A report: the item opens (a new round when it had been handled) unless it is deleted; one report per reporter and item. */
async function report(trx: Knex.Transaction, item: Item, reporterId: string, feedback: string, reportedAt: string) {
  await trx.raw(
    `WITH item AS (
       INSERT INTO items (kind, id, post_id, round, open, opened_at) VALUES (:kind, :id, :postId, 1, true, :reportedAt)
       ON CONFLICT (kind, id) DO UPDATE SET
         round = CASE WHEN items.open THEN items.round ELSE items.round + 1 END,
         opened_at = CASE WHEN items.open THEN items.opened_at ELSE excluded.opened_at END,
         open = true
       WHERE NOT items.deleted AND NOT EXISTS (SELECT 1 FROM reports r WHERE (r.kind, r.id, r.reporter_id) = (:kind, :id::uuid, :reporterId))
       RETURNING round
     )
     INSERT INTO reports (kind, id, reporter_id, feedback, reported_at, round)
     SELECT :kind, :id, :reporterId, :feedback, :reportedAt, round FROM item
     ON CONFLICT (kind, id, reporter_id) DO NOTHING`,
    { ...item, reporterId, feedback, reportedAt },
  );
}

/**
 * Staff's action on an item: it handles the item's open reports (`handling`, null: it handles none)
 * and moves its marks. A deletion is remembered even of an item never reported; a handling marked
 * `always` (hiding) is the item's latest, open or not, and makes a row for an item never reported.
 */
async function handle(
  trx: Knex.Transaction,
  item: Item,
  handling: { action: HandledAction; by: string; at: string; reason?: string; always?: boolean } | null,
  marks: { authorId?: string; hidden?: boolean; deleted?: boolean; warned?: boolean } = {},
) {
  const values = {
    kind: item.kind,
    id: item.id,
    postId: item.postId,
    action: handling?.action ?? null,
    by: handling?.by ?? null,
    at: handling?.at ?? null,
    reason: handling?.reason ?? null,
    authorId: marks.authorId ?? null,
    hidden: marks.hidden ?? null,
    deleted: marks.deleted ?? null,
    warned: marks.warned ?? null,
    always: handling?.always === true,
  };
  await trx.raw(
    `UPDATE items SET author_id = coalesce(:authorId, author_id), post_id = coalesce(:postId::uuid, post_id),
       hidden = coalesce(:hidden::boolean, hidden), deleted = coalesce(:deleted::boolean, deleted), warned = coalesce(:warned::boolean, warned),
       handled_action = CASE WHEN (open OR :always::boolean) AND :action::text IS NOT NULL THEN :action ELSE handled_action END,
       handled_by = CASE WHEN (open OR :always::boolean) AND :action::text IS NOT NULL THEN :by ELSE handled_by END,
       handled_at = CASE WHEN (open OR :always::boolean) AND :action::text IS NOT NULL THEN :at::timestamptz ELSE handled_at END,
       handled_reason = CASE WHEN (open OR :always::boolean) AND :action::text IS NOT NULL THEN :reason ELSE handled_reason END,
       open = open AND :action::text IS NULL
     WHERE kind = :kind AND id = :id`,
    values,
  );
  if (values.always && item.postId) {
    await trx.raw(
      `INSERT INTO items (kind, id, post_id, author_id, hidden, handled_action, handled_by, handled_at, handled_reason)
       VALUES (:kind, :id, :postId, :authorId, coalesce(:hidden::boolean, false), :action, :by, :at::timestamptz, :reason)
       ON CONFLICT (kind, id) DO NOTHING`,
      values,
    );
  }
  if (marks.deleted && item.postId) {
    await trx.raw(
      `INSERT INTO items (kind, id, post_id, author_id, deleted) VALUES (:kind, :id, :postId, :authorId, true) ON CONFLICT (kind, id) DO NOTHING`,
      values,
    );
  }
}
