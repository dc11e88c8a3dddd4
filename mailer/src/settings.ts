import { EMAIL_BATCH_SECONDS, EMAIL_UNSEEN_SECONDS } from '@forum/contracts';
import { z } from 'zod';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The notification mailer's settings (docs/configuration.md#notifications-by-email); the defaults are the product's. */
export const mailerSettings = {
  /** How long a notification waits to be seen in the app before it is mailed (EMAIL_UNSEEN_SECONDS). */
  NOTIFICATION_EMAIL_UNSEEN_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(DAY_MS)
    .default(EMAIL_UNSEEN_SECONDS * 1000),
  /** At most one email per member and kind in this long (EMAIL_BATCH_SECONDS); what comes meanwhile goes in the next. */
  NOTIFICATION_EMAIL_BATCH_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(DAY_MS)
    .default(EMAIL_BATCH_SECONDS * 1000),
  /** How often a member's digest is sent: daily; shorter for tests and demonstrations. */
  NOTIFICATION_DIGEST_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * DAY_MS)
    .default(DAY_MS),
  /** How often the mailer looks anyway (besides the projections' commits, which wake it). */
  NOTIFICATION_MAIL_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
};

export interface MailerTimings {
  readonly unseenMs: number;
  readonly batchMs: number;
  readonly digestIntervalMs: number;
  readonly pollMs: number;
}

export const mailerTimings = (config: { [K in keyof typeof mailerSettings]: z.infer<(typeof mailerSettings)[K]> }): MailerTimings => ({
  unseenMs: config.NOTIFICATION_EMAIL_UNSEEN_MS,
  batchMs: config.NOTIFICATION_EMAIL_BATCH_MS,
  digestIntervalMs: config.NOTIFICATION_DIGEST_INTERVAL_MS,
  pollMs: config.NOTIFICATION_MAIL_POLL_MS,
});
