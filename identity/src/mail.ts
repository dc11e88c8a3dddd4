import type { Knex, Logger } from '@forum/platform';
import nodemailer from 'nodemailer';
import { SCHEMA } from './store.ts';

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
  send(mail: OutgoingMail): Promise<void>;
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
        const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        log.info({ messageId: info.messageId, subject: mail.subject }, 'mail sent');
      },
      recent: () => Promise.resolve([]),
      close: () => transport.close(),
    };
  }

  return {
    mode: 'mailbox',
    async send(mail) {
      await db.raw(`INSERT INTO ${SCHEMA}.mailbox (recipient, subject, body) VALUES (?, ?, ?)`, [mail.to, mail.subject, mail.text]);
      log.info({ to: mail.to, subject: mail.subject, link: mail.link }, 'mail kept in the development mailbox (SMTP_URL is not set)');
    },
    async recent(limit) {
      const rows = await db<{ id: string; recipient: string; subject: string; body: string; created_at: Date }>('mailbox')
        .withSchema(SCHEMA)
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
  await db.raw(`DELETE FROM ${SCHEMA}.mailbox WHERE created_at < now() - interval '1 day'`);
}
