import { MAIL_SCHEMA, type Knex } from '@forum/platform';

/** Serialises the schema's creation between processes starting at once. */
const INIT_LOCK = 'forum:mail:outbox';

/**
 * The outbox (schema `mail`, beside the read models and never rebuilt with them):
 * - `outbox`: one row per notification to mail, keyed by the notification's id (a replay or a
 *   rebuild of the notifications makes the same ids: nothing is enqueued twice); `pending` until it
 *   goes into a message, then `queued`, then `sent` (or `skipped`: read meanwhile, or no one to mail);
 * - `messages`: each email composed (one member, one kind or their digest), `sending` until the mail
 *   port took it, retried with a growing pause; the newest per member and kind is what batching and
 *   the digest count from;
 * - `groups`: one row per member and kind of mail (a notification kind, or `digest`) that has had
 *   pending rows, with `ready_at`, when its next mail may be composed (see outbox.ts: READY),
 *   `infinity` while nothing waits; a look reads the ready groups and the next moment by index, not
 *   every waiting row;
 * - `enqueue_mark`: one row, the highest log position of the notifications' rows the mailer has looked
 *   at (`read.notifications.position`: the event that last made or moved a row, collapsed rows too), so
 *   that a look reads only rows made or moved since the last.
 */
export async function prepareOutbox(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [INIT_LOCK]);
    await trx.raw(`
      CREATE SCHEMA IF NOT EXISTS ${MAIL_SCHEMA};
      CREATE TABLE IF NOT EXISTS ${MAIL_SCHEMA}.outbox (
        notification_id uuid PRIMARY KEY,
        user_id text NOT NULL,
        kind text NOT NULL,
        delivery text NOT NULL CHECK (delivery IN ('email', 'digest')),
        created_at timestamptz NOT NULL,
        due_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'queued', 'sent', 'skipped')),
        message_id uuid,
        enqueued_at timestamptz NOT NULL DEFAULT now()
      );
      -- an outbox made by an earlier version has an index of its pending rows by due time, which nothing reads
      DROP INDEX IF EXISTS ${MAIL_SCHEMA}.outbox_pending;
      CREATE INDEX IF NOT EXISTS outbox_of_user ON ${MAIL_SCHEMA}.outbox (user_id);
      -- a group's waiting rows (compose, and its ready_at): a member's few, even where the statistics
      -- of a backlog just enqueued still say that every pending row is as few
      CREATE INDEX IF NOT EXISTS outbox_pending_of_group ON ${MAIL_SCHEMA}.outbox (user_id, delivery, kind) WHERE state = 'pending';
      CREATE INDEX IF NOT EXISTS outbox_of_message ON ${MAIL_SCHEMA}.outbox (message_id) WHERE message_id IS NOT NULL;
      CREATE TABLE IF NOT EXISTS ${MAIL_SCHEMA}.messages (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        kind text NOT NULL,
        state text NOT NULL DEFAULT 'sending' CHECK (state IN ('sending', 'sent', 'dropped')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        composed_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      );
      CREATE INDEX IF NOT EXISTS messages_sending ON ${MAIL_SCHEMA}.messages (next_attempt_at) WHERE state = 'sending';
      CREATE INDEX IF NOT EXISTS messages_latest ON ${MAIL_SCHEMA}.messages (user_id, kind, composed_at DESC);
      CREATE TABLE IF NOT EXISTS ${MAIL_SCHEMA}.groups (
        user_id text NOT NULL,
        kind text NOT NULL,
        ready_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, kind)
      );
      CREATE INDEX IF NOT EXISTS groups_email_ready ON ${MAIL_SCHEMA}.groups (ready_at) WHERE kind <> 'digest';
      CREATE INDEX IF NOT EXISTS groups_digest_ready ON ${MAIL_SCHEMA}.groups (ready_at) WHERE kind = 'digest';
      CREATE TABLE IF NOT EXISTS ${MAIL_SCHEMA}.enqueue_mark (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), up_to bigint NOT NULL);
      INSERT INTO ${MAIL_SCHEMA}.enqueue_mark (up_to) VALUES (0) ON CONFLICT DO NOTHING;
    `);
  });
}
