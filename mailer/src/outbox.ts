import { DEFAULT_DELIVERIES } from '@forum/contracts';
import { MAIL_SCHEMA, type Knex } from '@forum/platform';
import type { MailerTimings } from './settings.ts';

/** A notification is mailed only while it is this fresh: a mailer that was down longer, or a rebuild of old rows, mails nothing of it. */
export const MAIL_FRESH_SECONDS = 24 * 60 * 60;

/**
 * Puts into the outbox the members' notifications that their preferences mail (`email`, or the
 * `digest`) and that are unread and less than a day old: an `email` one is due when it has gone
 * unseen for `unseenMs`; a `digest` one waits for the member's next digest. Keyed by the
 * notification's id: one enqueued before (or sent, or skipped) is never enqueued again. Answers how
 * many it enqueued.
 *
 * A look reads only the rows made or moved since the last look: those whose log position is above the
 * mark (`mail.enqueue_mark`), one step into the notifications' position index; the mark moves to the
 * highest position read, in the same statement (one snapshot: the projection commits its rows in log
 * order, so none below the mark can come later). A collapsed row moves up with each comment that joins
 * it and is looked at again: its id is in the outbox already, so it is mailed once. A replay or rebuild
 * writes the positions the rows had, so it moves nothing above the mark. A warning's row has the
 * position of its `UserWarned` (see docs/notifications.md#email).
 */
export async function enqueue(db: Knex, timings: MailerTimings): Promise<number> {
  const { rowCount } = await db.raw<{ rowCount: number }>(
    `WITH mark AS (SELECT up_to FROM ${MAIL_SCHEMA}.enqueue_mark),
     moved AS (
       SELECT n.id, n.user_id, n.kind, n.created_at, n.read, n.position FROM read.notifications n WHERE n.position > (SELECT up_to FROM mark)
     ),
     marked AS (
       UPDATE ${MAIL_SCHEMA}.enqueue_mark SET up_to = greatest(up_to, (SELECT max(position) FROM moved)) WHERE (SELECT max(position) FROM moved) > up_to
     )
     INSERT INTO ${MAIL_SCHEMA}.outbox (notification_id, user_id, kind, delivery, created_at, due_at)
     SELECT n.id, n.user_id, n.kind, d.delivery, n.created_at,
            CASE WHEN d.delivery = 'email' THEN n.created_at + make_interval(secs => :unseen) ELSE n.created_at END
     FROM moved n
     CROSS JOIN LATERAL (
       SELECT coalesce((SELECT p.delivery FROM read.notification_preferences p WHERE p.user_id = n.user_id AND p.kind = n.kind), :defaults::jsonb ->> n.kind) AS delivery
     ) d
     WHERE n.created_at > now() - make_interval(secs => :fresh) AND NOT n.read AND d.delivery IN ('email', 'digest')
       AND NOT EXISTS (SELECT 1 FROM ${MAIL_SCHEMA}.outbox o WHERE o.notification_id = n.id)
       AND NOT EXISTS (SELECT 1 FROM read.account_denials x WHERE x.user_id = n.user_id)
     ON CONFLICT (notification_id) DO NOTHING`,
    { unseen: timings.unseenMs / 1000, defaults: JSON.stringify(DEFAULT_DELIVERIES), fresh: MAIL_FRESH_SECONDS },
  );
  return rowCount;
}

/** Whether the read models the mailer reads exist (the projections have made them). */
export async function readModelsMade(db: Knex): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { made: boolean }[] }>(
    `SELECT ${READS.map((view) => `to_regclass('read.${view}') IS NOT NULL`).join(' AND ')} AS made`,
  );
  return rows[0]?.made === true;
}
const READS = ['notifications', 'notification_preferences', 'users', 'account_denials', 'posts'];

/** A member's mail to compose: the notifications of one kind mailed at once, or their digest. */
export interface Group {
  readonly userId: string;
  readonly kind: string;
}

/**
 * The groups whose mail may be composed now: a member's due `email` notifications of a kind whose
 * last mail of that kind is at least `batchMs` old (or none), and a member's `digest` notifications
 * when their last digest (or, before their first, their oldest waiting notification) is at least
 * the digest interval old.
 */
export async function dueGroups(db: Knex, timings: MailerTimings, limit = 100): Promise<Group[]> {
  const { rows } = await db.raw<{ rows: Group[] }>(
    `(SELECT o.user_id AS "userId", o.kind FROM ${MAIL_SCHEMA}.outbox o
      WHERE o.state = 'pending' AND o.delivery = 'email' AND o.due_at <= now()
      GROUP BY o.user_id, o.kind
      HAVING coalesce((SELECT max(m.composed_at) FROM ${MAIL_SCHEMA}.messages m WHERE m.user_id = o.user_id AND m.kind = o.kind), '-infinity')
             <= now() - make_interval(secs => :batch)
      LIMIT :limit)
     UNION ALL
     (SELECT o.user_id, 'digest' FROM ${MAIL_SCHEMA}.outbox o
      WHERE o.state = 'pending' AND o.delivery = 'digest'
      GROUP BY o.user_id
      HAVING coalesce((SELECT max(m.composed_at) FROM ${MAIL_SCHEMA}.messages m WHERE m.user_id = o.user_id AND m.kind = 'digest'), min(o.created_at))
             <= now() - make_interval(secs => :digest)
      LIMIT :limit)`,
    { batch: timings.batchMs / 1000, digest: timings.digestIntervalMs / 1000, limit },
  );
  return rows;
}

/**
 * Composes a group's mail: in one transaction, the group's waiting rows (FOR UPDATE SKIP LOCKED: another
 * mailer process has the rows it claimed) go into a new message, `sending`. The group is held with an
 * advisory lock, and its batch or digest interval looked at again under it, so that two processes never
 * both compose a mail of one member and kind within the interval. Answers the message's id, or null.
 */
export async function compose(db: Knex, group: Group, timings: MailerTimings, messageId: string): Promise<string | null> {
  const digest = group.kind === 'digest';
  return db.transaction(async (trx) => {
    const { rows: held } = await trx.raw<{ rows: { held: boolean }[] }>('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS held', [
      `forum:mail:${group.userId}:${group.kind}`,
    ]);
    if (!held[0]?.held) return null;
    const { rows: open } = await trx.raw<{ rows: { open: boolean }[] }>(
      `SELECT coalesce(max(composed_at), '-infinity') <= now() - make_interval(secs => ?) AS open FROM ${MAIL_SCHEMA}.messages WHERE user_id = ? AND kind = ?`,
      [(digest ? timings.digestIntervalMs : timings.batchMs) / 1000, group.userId, group.kind],
    );
    if (!open[0]?.open) return null;
    const { rows } = await trx.raw<{ rows: { notification_id: string }[] }>(
      `SELECT notification_id FROM ${MAIL_SCHEMA}.outbox
       WHERE user_id = :userId AND state = 'pending'
         AND (CASE WHEN :digest THEN delivery = 'digest' ELSE delivery = 'email' AND kind = :kind AND due_at <= now() END)
       ORDER BY created_at FOR UPDATE SKIP LOCKED`,
      { userId: group.userId, kind: group.kind, digest },
    );
    if (rows.length === 0) return null;
    await trx.raw(`INSERT INTO ${MAIL_SCHEMA}.messages (id, user_id, kind) VALUES (?, ?, ?)`, [messageId, group.userId, group.kind]);
    await trx.raw(`UPDATE ${MAIL_SCHEMA}.outbox SET state = 'queued', message_id = ? WHERE notification_id = ANY(?::uuid[])`, [
      messageId,
      rows.map((row) => row.notification_id),
    ]);
    return messageId;
  });
}

/** The outbox holds no mail for an erased member: their rows and messages go (read.account_denials says who was erased). */
export async function forgetErased(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.outbox o USING read.account_denials d WHERE d.user_id = o.user_id AND d.reason = 'erased'`);
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.messages m USING read.account_denials d WHERE d.user_id = m.user_id AND d.reason = 'erased'`);
}

/**
 * Drops what no longer counts: rows done with for longer than a notification is mailed (they could
 * not be enqueued again anyway), and messages done with for longer than that and the digest interval.
 */
export async function housekeep(db: Knex, timings: MailerTimings): Promise<void> {
  const keep = Math.max(2 * MAIL_FRESH_SECONDS, (2 * timings.digestIntervalMs) / 1000);
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.outbox WHERE state IN ('sent', 'skipped') AND enqueued_at < now() - make_interval(secs => ?)`, [keep]);
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.messages WHERE state <> 'sending' AND composed_at < now() - make_interval(secs => ?)`, [keep]);
}
