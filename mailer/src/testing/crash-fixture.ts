/**
 * Runs the notification mailer over DATABASE_URL with the development mailbox, and kills its own
 * process with SIGKILL in the middle of its CRASH_AT-th mail: the mail is in the mailbox's table
 * but its transaction (the mail and the outbox's 'sent') never commits.
 */
import { randomBytes } from 'node:crypto';
import { createKnex, createLogger, createMailer, unsubscribeTokens, type Mailer } from '@forum/platform';
import { startNotificationMailer } from '../reactor.ts';

const url = process.env.DATABASE_URL!;
const crashAt = Number(process.env.CRASH_AT);
const db = createKnex(url);
const logger = createLogger('crash-fixture', 'silent');
const mailbox = createMailer(undefined, db, logger);
let sent = 0;
const mailer: Mailer = {
  ...mailbox,
  async send(mail, options) {
    await mailbox.send(mail, options);
    if (++sent === crashAt) process.kill(process.pid, 'SIGKILL');
  },
};
await startNotificationMailer({
  db,
  connectionString: url,
  wakeChannels: ['mailer_crash_fixture'],
  mailer,
  tokens: unsubscribeTokens(randomBytes(32)),
  emailVerified: () => Promise.resolve(true),
  origin: 'https://forum.example',
  timings: { unseenMs: 300_000, batchMs: 300_000, digestIntervalMs: 86_400_000, pollMs: 100 },
  logger,
});
