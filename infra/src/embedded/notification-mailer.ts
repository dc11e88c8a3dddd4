import type { IdentityAdmin } from '@forum/command-service';
import { realmEmailVerified } from '@forum/identity';
import { mailerTimings, startNotificationMailer, type mailerSettings, type NotificationMailer } from '@forum/mailer';
import { createMailer, prepareMailbox, type Knex, type Logger, type UnsubscribeTokens } from '@forum/platform';
import { CHECKPOINTS_CHANNEL } from '@forum/projections';
import type { z } from 'zod';

type MailerConfig = { [K in keyof typeof mailerSettings]: z.infer<(typeof mailerSettings)[K]> } & { SMTP_URL?: string | undefined; MAIL_FROM: string };

/**
 * The notifications' mailer of a process (docs/notifications.md#email): through SMTP_URL, else the
 * development mailbox; woken by the projections' commits; the identity provider's admin port says which
 * addresses are verified (the embedded realm's accounts, or Keycloak's users), else the embedded realm's
 * tables when they are in this database (none there: no one is mailed). Several processes may run it.
 */
export async function startForumMailer(options: {
  readonly config: MailerConfig;
  readonly db: Knex;
  readonly databaseUrl: string;
  /** Where members reach the forum (PUBLIC_URL). */
  readonly origin: string;
  readonly tokens: Pick<UnsubscribeTokens, 'sign'>;
  /** The identity provider's admin port, when there is one (IDENTITY_ADMIN_*, or the embedded realm in process). */
  readonly identity: Pick<IdentityAdmin, 'emailVerified'> | null;
  readonly logger: Logger;
}): Promise<{ readonly mailer: NotificationMailer; stop(): Promise<void> }> {
  const { config, db, identity, logger } = options;
  const port = createMailer({ ...(config.SMTP_URL && { smtpUrl: config.SMTP_URL }), from: config.MAIL_FROM }, db, logger.child({ component: 'mail' }));
  // without the embedded realm (an external issuer) nothing else makes the development mailbox
  if (port.mode === 'mailbox') await prepareMailbox(db);
  const mailer = await startNotificationMailer({
    db,
    connectionString: options.databaseUrl,
    wakeChannels: [CHECKPOINTS_CHANNEL],
    mailer: port,
    tokens: options.tokens,
    emailVerified: identity ? (userId) => identity.emailVerified(userId) : realmEmailVerified(db),
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
