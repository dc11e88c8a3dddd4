import { realmEmailVerified } from '@forum/identity';
import { mailerTimings, startNotificationMailer, type mailerSettings, type NotificationMailer } from '@forum/mailer';
import { createMailer, prepareMailbox, type Knex, type Logger, type UnsubscribeTokens } from '@forum/platform';
import { CHECKPOINTS_CHANNEL } from '@forum/projections';
import type { z } from 'zod';

type MailerConfig = { [K in keyof typeof mailerSettings]: z.infer<(typeof mailerSettings)[K]> } & { SMTP_URL?: string | undefined; MAIL_FROM: string };

/**
 * The notifications' mailer of a process (docs/notifications.md#email): through SMTP_URL, else the
 * development mailbox; woken by the projections' commits; the embedded realm's accounts say which
 * addresses are verified. Several processes may run it.
 */
export async function startForumMailer(options: {
  readonly config: MailerConfig;
  readonly db: Knex;
  readonly databaseUrl: string;
  /** Where members reach the forum (PUBLIC_URL). */
  readonly origin: string;
  readonly tokens: Pick<UnsubscribeTokens, 'sign'>;
  readonly logger: Logger;
}): Promise<{ readonly mailer: NotificationMailer; stop(): Promise<void> }> {
  const { config, db, logger } = options;
  const port = createMailer({ ...(config.SMTP_URL && { smtpUrl: config.SMTP_URL }), from: config.MAIL_FROM }, db, logger.child({ component: 'mail' }));
  // without the embedded realm (an external issuer) nothing else makes the development mailbox
  if (port.mode === 'mailbox') await prepareMailbox(db);
  const mailer = await startNotificationMailer({
    db,
    connectionString: options.databaseUrl,
    wakeChannels: [CHECKPOINTS_CHANNEL],
    mailer: port,
    tokens: options.tokens,
    emailVerified: realmEmailVerified(db),
    origin: new URL(options.origin).origin,
    timings: mailerTimings(config),
    logger,
  });
  return {
    mailer,
    async stop() {
      await mailer.stop();
      port.close();
    },
  };
}
