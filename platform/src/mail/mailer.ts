import nodemailer from 'nodemailer';
import type { Knex } from '../db.ts';
import type { Logger } from '../logger.ts';

/**
 * The development mailbox: what the forum would have mailed when no SMTP server is configured, shown
 * by the embedded realm's `{issuer}/mailbox` page. It lives in the realm's schema; the realm and the
 * notifications' mailer both write to it.
 */
const MAILBOX = 'identity.mailbox';
export const MAILBOX_DDL = [
  'CREATE SCHEMA IF NOT EXISTS identity',
  `CREATE TABLE IF NOT EXISTS ${MAILBOX} (
     id bigserial PRIMARY KEY,
     recipient text NOT NULL,
     subject text NOT NULL,
     body text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
];

/** Creates the development mailbox when missing (the embedded realm creates it with its schema; an external realm does not). */
export async function prepareMailbox(db: Knex): Promise<void> {
  for (const statement of MAILBOX_DDL) await db.raw(statement);
}

export interface MailOptions {
  /** smtp(s)://user:pass@host:port — unset: the development mailbox (`{issuer}/mailbox`). */
  smtpUrl?: string;
  /** Sender, e.g. 'Forum <no-reply@forum.local>'. */
  from: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link of the mail: logged (info, its key left out like every secret) in mailbox mode only, never with SMTP. */
  link?: string;
  /** The Message-ID (`<…@…>`), to make a mail the same one however often it is sent; nodemailer makes one when absent. */
  messageId?: string;
  /** More headers (List-Unsubscribe…). */
  headers?: Readonly<Record<string, string>>;
}

/** How one mail is sent: in the development mailbox, as part of `transaction` when given (committed with it). */
export interface SendOptions {
  readonly transaction?: Knex.Transaction;
}

export interface StoredMail {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  createdAt: Date;
}

export interface Mailer {
  readonly mode: 'smtp' | 'mailbox';
  send(mail: OutgoingMail, options?: SendOptions): Promise<void>;
  /** The development mailbox, newest first (empty in SMTP mode). */
  recent(limit: number): Promise<StoredMail[]>;
  close(): void;
}

export const DEFAULT_MAIL_FROM = 'Forum <no-reply@forum.local>';

export function createMailer(options: MailOptions | undefined, db: Knex, log: Logger): Mailer {
  const from = options?.from || DEFAULT_MAIL_FROM;
  if (options?.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      mode: 'smtp',
      async send(mail) {
        const info = await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.messageId && { messageId: mail.messageId }),
          ...(mail.headers && { headers: { ...mail.headers } }),
        });
        log.info({ messageId: info.messageId, subject: mail.subject }, 'mail sent');
      },
      recent: () => Promise.resolve([]),
      close: () => transport.close(),
    };
  }

  return {
    mode: 'mailbox',
    async send(mail, sending) {
      await (sending?.transaction ?? db).raw(`INSERT INTO ${MAILBOX} (recipient, subject, body) VALUES (?, ?, ?)`, [mail.to, mail.subject, mail.text]);
      log.info({ to: mail.to, subject: mail.subject, link: mail.link }, 'mail kept in the development mailbox (SMTP_URL is not set)');
    },
    async recent(limit) {
      const rows = await db<{ id: string; recipient: string; subject: string; body: string; created_at: Date }>('mailbox')
        .withSchema('identity')
        .select('id', 'recipient', 'subject', 'body', 'created_at')
        .orderBy('id', 'desc')
        .limit(limit);
      return rows.map((row) => ({ id: String(row.id), recipient: row.recipient, subject: row.subject, body: row.body, createdAt: row.created_at }));
    },
    close() {},
  };
}

/** Drops development mails older than a day. */
export async function deleteOldMail(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM ${MAILBOX} WHERE created_at < now() - interval '1 day'`);
}
