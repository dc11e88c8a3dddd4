import { randomUUID } from 'node:crypto';
import type { Knex } from '@forum/platform';

/**
 * The read models the mailer reads, as tables of a test's own database in the shape the projections
 * give them (docs/notifications.md; read.notifications' activity columns are the notifications
 * projection's, read.notification_preferences this workspace's projection's), so that the mailer's
 * tests write exactly the rows they mean.
 */
export async function createReadModels(db: Knex): Promise<void> {
  await db.raw(`
    CREATE SCHEMA IF NOT EXISTS read;
    CREATE SEQUENCE read.log_positions;
    CREATE TABLE read.notifications (
      id uuid PRIMARY KEY, user_id text NOT NULL, kind text NOT NULL, reason text, post_id uuid, comment_id uuid,
      actor_id text, tag text, count integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, read boolean NOT NULL DEFAULT false,
      position bigint, action text, until timestamptz
    );
    CREATE INDEX notifications_at_position ON read.notifications (position) WHERE position IS NOT NULL;
    CREATE TABLE read.users (id text PRIMARY KEY, email text NOT NULL, name text NOT NULL);
    CREATE TABLE read.account_denials (user_id text PRIMARY KEY, reason text NOT NULL);
    CREATE TABLE read.posts (id uuid PRIMARY KEY, title text NOT NULL);
    CREATE TABLE read.notification_preferences (user_id text NOT NULL, kind text NOT NULL, delivery text NOT NULL, PRIMARY KEY (user_id, kind));
  `);
}

export interface Notified {
  readonly id?: string;
  readonly userId: string;
  readonly kind: string;
  readonly postId?: string | null;
  readonly commentId?: string | null;
  readonly actorId?: string | null;
  readonly tag?: string | null;
  readonly count?: number;
  readonly reason?: string | null;
  /** How long ago it was made (seconds). */
  readonly ageSeconds?: number;
  readonly read?: boolean;
}

/** A notification row as the notifications projection writes it; answers its id. */
export async function notify(db: Knex, row: Notified): Promise<string> {
  const id = row.id ?? randomUUID();
  await db.raw(
    `INSERT INTO read.notifications (id, user_id, kind, reason, post_id, comment_id, actor_id, tag, count, created_at, updated_at, read, position)
     VALUES (:id, :userId, :kind, :reason, :postId, :commentId, :actorId, :tag, :count, now() - make_interval(secs => :age), now() - make_interval(secs => :age), :read,
             nextval('read.log_positions'))`,
    {
      id,
      userId: row.userId,
      kind: row.kind,
      reason: row.reason ?? null,
      postId: row.postId ?? null,
      commentId: row.commentId ?? null,
      actorId: row.actorId ?? null,
      tag: row.tag ?? null,
      count: row.count ?? 1,
      age: row.ageSeconds ?? 0,
      read: row.read ?? false,
    },
  );
  return id;
}

/** A member as read.users has them. */
export async function member(db: Knex, id: string, name: string, email = `${id}@forum.test`): Promise<void> {
  await db.raw('INSERT INTO read.users (id, email, name) VALUES (?, ?, ?)', [id, email, name]);
}

/** A post as read.posts has it; answers its id. */
export async function post(db: Knex, title: string): Promise<string> {
  const id = randomUUID();
  await db.raw('INSERT INTO read.posts (id, title) VALUES (?, ?)', [id, title]);
  return id;
}

/** The development mailbox's mails, oldest first. */
export async function mailbox(db: Knex): Promise<{ recipient: string; subject: string; body: string }[]> {
  const { rows } = await db.raw<{ rows: { recipient: string; subject: string; body: string }[] }>(
    'SELECT recipient, subject, body FROM identity.mailbox ORDER BY id',
  );
  return rows;
}
