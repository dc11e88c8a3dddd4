import { DEFAULT_DELIVERIES } from '@forum/contracts';
import { MAIL_SCHEMA, type Knex } from '@forum/platform';
import type { MailerTimings } from './settings.ts';

/** A notification is mailed only while it is this fresh: a mailer that was down longer, or a rebuild of old rows, mails nothing of it. */
export const MAIL_FRESH_SECONDS = 24 * 60 * 60;

/**
 * When a group's next mail may be composed (`mail.groups.ready_at`), for a group `g` with the
 * columns user_id, kind and, of its pending rows, first_due (the earliest due_at) and first_created
 * (the earliest created_at), as its mail stands now: a member's `email` mail of a kind once its first
 * row is due and their last mail of that kind is `:batch` seconds old; their digest `:digest` seconds
 * after their last digest (before their first, after their oldest waiting row). NULL when nothing waits.
 */
const READY = `CASE WHEN g.kind = 'digest'
  THEN coalesce((SELECT max(m.composed_at) FROM ${MAIL_SCHEMA}.messages m WHERE m.user_id = g.user_id AND m.kind = 'digest'), g.first_created)
       + make_interval(secs => :digest)
  ELSE greatest(g.first_due, coalesce((SELECT max(m.composed_at) FROM ${MAIL_SCHEMA}.messages m WHERE m.user_id = g.user_id AND m.kind = g.kind), '-infinity')
       + make_interval(secs => :batch)) END`;

/** A group's kind for an outbox row `o`: the notification's kind by email, or the member's digest. */
const GROUP_KIND = `CASE WHEN o.delivery = 'digest' THEN 'digest' ELSE o.kind END`;

const intervals = (timings: MailerTimings) => ({ batch: timings.batchMs / 1000, digest: timings.digestIntervalMs / 1000 });

/**
 * Puts into the outbox the members' notifications that their preferences mail (`email`, or the
 * `digest`) and that are unread and less than a day old: an `email` one is due when it has gone
 * unseen for `unseenMs`; a `digest` one waits for the member's next digest. Keyed by the
 * notification's id: one enqueued before (or sent, or skipped) is never enqueued again. Answers how
 * many it enqueued. Their groups' `ready_at` moves earlier if the new rows make them ready sooner
 * (`least`: a row added can only bring a mail forward; the groups are written in one order, so that
 * two processes' looks never wait on each other in a circle).
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
  const { rows } = await db.raw<{ rows: { n: number }[] }>(
    `WITH mark AS (SELECT up_to FROM ${MAIL_SCHEMA}.enqueue_mark),
     moved AS (
       SELECT n.id, n.user_id, n.kind, n.created_at, n.read, n.position FROM read.notifications n WHERE n.position > (SELECT up_to FROM mark)
     ),
     marked AS (
       UPDATE ${MAIL_SCHEMA}.enqueue_mark SET up_to = greatest(up_to, (SELECT max(position) FROM moved)) WHERE (SELECT max(position) FROM moved) > up_to
     ),
     inserted AS (
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
     ON CONFLICT (notification_id) DO NOTHING
     RETURNING user_id, kind, delivery, created_at, due_at
     ),
     g AS (SELECT o.user_id, ${GROUP_KIND} AS kind, min(o.due_at) AS first_due, min(o.created_at) AS first_created FROM inserted o GROUP BY 1, 2),
     grouped AS (
       INSERT INTO ${MAIL_SCHEMA}.groups (user_id, kind, ready_at) SELECT g.user_id, g.kind, ${READY} FROM g ORDER BY g.user_id, g.kind
       ON CONFLICT (user_id, kind) DO UPDATE SET ready_at = least(groups.ready_at, EXCLUDED.ready_at)
     )
     SELECT count(*)::int AS n FROM inserted`,
    { unseen: timings.unseenMs / 1000, defaults: JSON.stringify(DEFAULT_DELIVERIES), fresh: MAIL_FRESH_SECONDS, ...intervals(timings) },
  );
  return rows[0]?.n ?? 0;
}

/**
 * Writes every waiting group's `ready_at` as the outbox and the timings now make it (housekeep: a
 * mailer's first look and every 100th; an outbox from before the groups, timings changed since, rows a
 * mailer of an earlier version enqueued beside this one). Moves none later: a
 * group that is picked too soon is put right by `compose`, which looks again under the group's lock.
 */
async function refreshGroups(db: Knex, timings: MailerTimings): Promise<void> {
  await db.raw(
    `INSERT INTO ${MAIL_SCHEMA}.groups (user_id, kind, ready_at)
     SELECT g.user_id, g.kind, ${READY}
     FROM (SELECT o.user_id, ${GROUP_KIND} AS kind, min(o.due_at) AS first_due, min(o.created_at) AS first_created
           FROM ${MAIL_SCHEMA}.outbox o WHERE o.state = 'pending' GROUP BY 1, 2) g
     ORDER BY g.user_id, g.kind
     ON CONFLICT (user_id, kind) DO UPDATE SET ready_at = least(groups.ready_at, EXCLUDED.ready_at)`,
    intervals(timings),
  );
}

/** Writes a group's `ready_at` from its pending rows and its last mail as they are now (`infinity`: nothing waits); the caller holds the group's row. */
async function settleGroup(trx: Knex.Transaction, group: Group, timings: MailerTimings): Promise<void> {
  await trx.raw(
    `UPDATE ${MAIL_SCHEMA}.groups SET ready_at = coalesce((
       SELECT ${READY} FROM (
         SELECT :userId::text AS user_id, :kind::text AS kind, min(o.due_at) AS first_due, min(o.created_at) AS first_created
         FROM ${MAIL_SCHEMA}.outbox o WHERE o.user_id = :userId AND o.state = 'pending' AND ${GROUP_KIND} = :kind HAVING count(*) > 0
       ) g), 'infinity')
     WHERE user_id = :userId AND kind = :kind`,
    { userId: group.userId, kind: group.kind, ...intervals(timings) },
  );
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
 * The groups whose mail may be composed now (READY), the longest ready first, up to `limit` of the
 * `email` groups and `limit` digests: read by the groups' index, however many rows wait.
 */
export async function dueGroups(db: Knex, limit = 100): Promise<Group[]> {
  const { rows } = await db.raw<{ rows: Group[] }>(
    `(SELECT user_id AS "userId", kind FROM ${MAIL_SCHEMA}.groups WHERE kind <> 'digest' AND ready_at <= now() ORDER BY ready_at LIMIT :limit)
     UNION ALL
     (SELECT user_id AS "userId", kind FROM ${MAIL_SCHEMA}.groups WHERE kind = 'digest' AND ready_at <= now() ORDER BY ready_at LIMIT :limit)`,
    { limit },
  );
  return rows;
}

/**
 * In how many ms the next `email` mail may be composed or a retry's pause ends (the digests are looked
 * for by the poll), or null when nothing waits; by index.
 */
export async function nextDueMs(db: Knex): Promise<number | null> {
  const { rows } = await db.raw<{ rows: { ms: number | null }[] }>(
    `SELECT ceil(extract(epoch FROM least(
        (SELECT min(ready_at) FROM ${MAIL_SCHEMA}.groups WHERE kind <> 'digest' AND ready_at < 'infinity'),
        (SELECT min(next_attempt_at) FROM ${MAIL_SCHEMA}.messages WHERE state = 'sending')
      ) - now()) * 1000)::integer AS ms`,
  );
  return rows[0]?.ms ?? null;
}

/**
 * Composes a group's mail: in one transaction, the group's waiting rows (FOR UPDATE SKIP LOCKED: another
 * mailer process has the rows it claimed) go into a new message, `sending`. The group is held with an
 * advisory lock, and its batch or digest interval looked at again under it, so that two processes never
 * both compose a mail of one member and kind within the interval. Its `groups` row is held too (a look
 * that enqueues rows of it waits), and its `ready_at` written afresh whatever came of it. Answers the
 * message's id, or null.
 */
export async function compose(db: Knex, group: Group, timings: MailerTimings, messageId: string): Promise<string | null> {
  return db.transaction(async (trx) => {
    const { rows: held } = await trx.raw<{ rows: { held: boolean }[] }>('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS held', [
      `forum:mail:${group.userId}:${group.kind}`,
    ]);
    if (!held[0]?.held) return null;
    await trx.raw(`SELECT 1 FROM ${MAIL_SCHEMA}.groups WHERE user_id = ? AND kind = ? FOR UPDATE`, [group.userId, group.kind]);
    const message = await composeHeld(trx, group, timings, messageId);
    await settleGroup(trx, group, timings);
    return message;
  });
}

/** `compose` under the group's locks: the message, or null when its interval is not over or none of its rows is due. */
async function composeHeld(trx: Knex.Transaction, group: Group, timings: MailerTimings, messageId: string): Promise<string | null> {
  const digest = group.kind === 'digest';
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
}

/** The outbox holds no mail for an erased member: their rows and messages go (read.account_denials says who was erased). */
export async function forgetErased(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.outbox o USING read.account_denials d WHERE d.user_id = o.user_id AND d.reason = 'erased'`);
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.messages m USING read.account_denials d WHERE d.user_id = m.user_id AND d.reason = 'erased'`);
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.groups g USING read.account_denials d WHERE d.user_id = g.user_id AND d.reason = 'erased'`);
}

/**
 * Drops what no longer counts: rows done with for longer than a notification is mailed (they could
 * not be enqueued again anyway), messages done with for longer than that and the digest interval, and
 * groups with nothing waiting; then writes the waiting groups again (refreshGroups).
 */
export async function housekeep(db: Knex, timings: MailerTimings): Promise<void> {
  const keep = Math.max(2 * MAIL_FRESH_SECONDS, (2 * timings.digestIntervalMs) / 1000);
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.outbox WHERE state IN ('sent', 'skipped') AND enqueued_at < now() - make_interval(secs => ?)`, [keep]);
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.messages WHERE state <> 'sending' AND composed_at < now() - make_interval(secs => ?)`, [keep]);
  // a group with nothing waiting (an enqueue that moves it meanwhile keeps it: the row is looked at again)
  await db.raw(`DELETE FROM ${MAIL_SCHEMA}.groups WHERE ready_at = 'infinity'`);
  // rows that came without their group (enqueued by a mailer of an earlier version, as a rolling upgrade runs both) get one
  await refreshGroups(db, timings);
}
