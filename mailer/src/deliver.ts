import { BRAND, NOTIFICATION_KINDS, type NotificationKind } from '@forum/contracts';
import { MAIL_SCHEMA, type Knex, type Logger, type Mailer, type UnsubscribeTokens } from '@forum/platform';
import { MAIL_FRESH_SECONDS } from './outbox.ts';
import { renderMail, type MailItem } from './templates.ts';

/** Whether the identity provider vouches that the member owns their address (the identity-admin port: the embedded realm, or Keycloak; see the composition). A failure leaves the mail to be tried again. */
export type EmailVerification = (userId: string) => Promise<boolean>;

export interface DeliveryContext {
  readonly db: Knex;
  readonly mailer: Mailer;
  readonly tokens: Pick<UnsubscribeTokens, 'sign'>;
  readonly emailVerified: EmailVerification;
  /** Where members reach the forum: the links of the mails. */
  readonly origin: string;
  /** The host of the Message-IDs (`<notification-…@host>`). */
  readonly host: string;
  readonly logger: Logger;
}

/** The longest pause before a mail the port refused is tried again. */
const MAX_BACKOFF_SECONDS = 3600;

const DELETED_USER = 'Deleted user';
const isKind = (kind: string): kind is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(kind);

interface ItemRow {
  notification_id: string;
  kind: string;
  delivery: string;
  present: boolean;
  read: boolean;
  fresh: boolean;
  post_id: string | null;
  comment_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  post_title: string | null;
  tag: string | null;
  count: number | null;
  reason: string | null;
  action: string | null;
  until: Date | null;
}

/** How many messages a look takes. */
export const SENDING_BATCH = 50;

/** Messages waiting to be sent (first attempts, and retries whose pause is over), oldest first. */
export async function sendingMessages(db: Knex, limit = SENDING_BATCH): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `SELECT id FROM ${MAIL_SCHEMA}.messages WHERE state = 'sending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT ?`,
    [limit],
  );
  return rows.map((row) => row.id);
}

/**
 * Sends one message, in one transaction that holds its row (FOR UPDATE SKIP LOCKED: one process at a
 * time): its notifications as the read models have them now (still unread: one read meanwhile is
 * skipped; a mail at once no older than a day), the names and titles as they are now, to the member
 * when they are still one to mail (registered, neither disabled nor erased, their address verified).
 * The message is `sent` in the same transaction as the mail port's work: with the development
 * mailbox that is the mail itself, so a crash either leaves both or neither (exactly once); with SMTP
 * the server may have taken the mail before a crash kept the commit from happening, and the mail is
 * sent again with the same Message-ID (at least once). A refusal of the port is tried again later,
 * after a pause that doubles each time. Answers whether a mail went out.
 */
export async function deliver(context: DeliveryContext, messageId: string): Promise<boolean> {
  const { db, logger } = context;
  try {
    return await db.transaction(async (trx) => {
      const { rows: held } = await trx.raw<{ rows: { user_id: string; kind: string }[] }>(
        `SELECT user_id, kind FROM ${MAIL_SCHEMA}.messages WHERE id = ? AND state = 'sending' FOR UPDATE SKIP LOCKED`,
        [messageId],
      );
      const message = held[0];
      if (!message) return false;
      const what = message.kind === 'digest' ? 'digest' : isKind(message.kind) ? message.kind : null;
      const items = await itemsOf(trx, messageId);
      const kept = items.filter((item) => item.present && !item.read && isKind(item.kind) && (item.delivery === 'digest' || item.fresh));
      const recipient = await recipientOf(trx, message.user_id, context.emailVerified);
      if (what === null || kept.length === 0 || recipient === null) {
        await settle(trx, messageId, 'dropped', []);
        return false;
      }
      const kinds = [...new Set(kept.map((item) => item.kind as NotificationKind))];
      const mail = renderMail(what, kept.map(mailItem), {
        brand: BRAND.name,
        origin: context.origin,
        recipientName: recipient.name,
        unsubscribeToken: context.tokens.sign({ userId: message.user_id, kinds }),
      });
      // the first notification's id names the mail, however often it is sent
      const first = kept[0]!.notification_id;
      await context.mailer.send(
        { to: recipient.email, ...mail, messageId: `<${what === 'digest' ? 'digest' : 'notification'}-${first}@${context.host}>` },
        { transaction: trx },
      );
      await settle(
        trx,
        messageId,
        'sent',
        kept.map((item) => item.notification_id),
      );
      return true;
    });
  } catch (error) {
    const { rows } = await db.raw<{ rows: { attempts: number }[] }>(
      `UPDATE ${MAIL_SCHEMA}.messages SET attempts = attempts + 1, last_error = ?,
         next_attempt_at = now() + make_interval(secs => least(?, power(2, attempts)::integer))
       WHERE id = ? AND state = 'sending' RETURNING attempts`,
      [error instanceof Error ? error.message : String(error), MAX_BACKOFF_SECONDS, messageId],
    );
    logger.warn({ messageId, attempts: rows[0]?.attempts, err: error }, 'a notification email was not sent; trying again later');
    return false;
  }
}

/** The message is done: its notifications `sent` (those named) or `skipped` (the others). */
async function settle(trx: Knex.Transaction, messageId: string, state: 'sent' | 'dropped', sent: readonly string[]): Promise<void> {
  await trx.raw(`UPDATE ${MAIL_SCHEMA}.messages SET state = ?, sent_at = CASE WHEN ? = 'sent' THEN now() END WHERE id = ?`, [state, state, messageId]);
  await trx.raw(`UPDATE ${MAIL_SCHEMA}.outbox SET state = CASE WHEN notification_id = ANY(?::uuid[]) THEN 'sent' ELSE 'skipped' END WHERE message_id = ?`, [
    [...sent],
    messageId,
  ]);
}

/** The message's notifications as the read models have them now: names and titles joined here, never copied. */
async function itemsOf(trx: Knex.Transaction, messageId: string): Promise<ItemRow[]> {
  const { rows } = await trx.raw<{ rows: ItemRow[] }>(
    `SELECT o.notification_id, o.kind, o.delivery, n.id IS NOT NULL AS present, coalesce(n.read, true) AS read,
            o.created_at > now() - make_interval(secs => ?) AS fresh,
            n.post_id, n.comment_id, n.actor_id, a.name AS actor_name, p.title AS post_title, n.tag, n.count, n.reason, n.action, n.until
     FROM ${MAIL_SCHEMA}.outbox o
     LEFT JOIN read.notifications n ON n.id = o.notification_id
     LEFT JOIN read.posts p ON p.id = n.post_id
     LEFT JOIN read.users a ON a.id = n.actor_id
     WHERE o.message_id = ?
     ORDER BY o.created_at, o.notification_id`,
    [MAIL_FRESH_SECONDS, messageId],
  );
  return rows;
}

function mailItem(row: ItemRow): MailItem {
  return {
    kind: row.kind as NotificationKind,
    postId: row.post_id,
    commentId: row.comment_id,
    postTitle: row.post_title,
    actorName: row.actor_id === null ? null : (row.actor_name ?? DELETED_USER),
    tag: row.tag,
    count: row.count ?? 1,
    reason: row.reason,
    action: row.action as MailItem['action'],
    until: row.until?.toISOString() ?? null,
  };
}

/** The member's address and name when the forum mails them: registered, not disabled nor erased, the address verified. */
async function recipientOf(trx: Knex.Transaction, userId: string, emailVerified: EmailVerification): Promise<{ email: string; name: string } | null> {
  const { rows } = await trx.raw<{ rows: { email: string; name: string }[] }>(
    `SELECT u.email, u.name FROM read.users u WHERE u.id = ? AND NOT EXISTS (SELECT 1 FROM read.account_denials d WHERE d.user_id = u.id)`,
    [userId],
  );
  const member = rows[0];
  if (!member || member.email === '') return null;
  return (await emailVerified(userId)) ? member : null;
}
