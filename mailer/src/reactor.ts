import { randomUUID } from 'node:crypto';
import { MAIL_SCHEMA, listenForNotifications, type Knex, type Logger, type Mailer, type UnsubscribeTokens } from '@forum/platform';
import { deliver, sendingMessages, type EmailVerification } from './deliver.ts';
import { compose, dueGroups, enqueue, forgetErased, housekeep } from './outbox.ts';
import { prepareOutbox } from './schema.ts';
import type { MailerTimings } from './settings.ts';

export interface NotificationMailerOptions {
  /** The read models' database (read.*), where the outbox lives too (schema mail). */
  readonly db: Knex;
  /** For the session that listens for the projections' commits (`wakeChannels`). */
  readonly connectionString: string;
  /** Channels whose NOTIFY means the read models moved (the projections' checkpoints): a look at once. */
  readonly wakeChannels: readonly string[];
  readonly mailer: Mailer;
  /** Signs the unsubscribe links (the forum's secret, unsubscribeSecret). */
  readonly tokens: Pick<UnsubscribeTokens, 'sign'>;
  readonly emailVerified: EmailVerification;
  /** Where members reach the forum (an origin): the links of the mails, and the host of their Message-IDs. */
  readonly origin: string;
  readonly timings: MailerTimings;
  readonly logger: Logger;
}

export interface NotificationMailer {
  /** One pass now (tests): enqueue, compose and send what is due; answers how many mails went out. */
  pass(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The notifications' mailer (docs/notifications.md#email): a reactor over the read models. Each pass
 * forgets erased members' mail, enqueues what the members' notifications and preferences mail, composes
 * the mails that are due (batched per member and kind, or a member's digest) and sends them through the
 * mail port, each claimed with FOR UPDATE SKIP LOCKED so that several processes may run it. It looks
 * when a projection commits (LISTEN), every `pollMs`, and when the next mail is due; a pass that fails
 * is tried again at the next.
 */
export async function startNotificationMailer(options: NotificationMailerOptions): Promise<NotificationMailer> {
  const { db, timings } = options;
  const log = options.logger.child({ component: 'notification-mailer' });
  await prepareOutbox(db);
  const context = {
    db,
    mailer: options.mailer,
    tokens: options.tokens,
    emailVerified: options.emailVerified,
    origin: options.origin,
    host: new URL(options.origin).hostname,
    logger: log,
  };

  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let passes = 0;

  async function pass(): Promise<number> {
    await forgetErased(db);
    await enqueue(db, timings);
    for (const group of await dueGroups(db, timings)) {
      if (stopped) break;
      await compose(db, group, timings, randomUUID());
    }
    let sent = 0;
    for (let batch = await sendingMessages(db); batch.length > 0 && !stopped; batch = await sendingMessages(db)) {
      let progressed = false;
      for (const id of batch) {
        if (stopped) break;
        if (await deliver(context, id)) sent += 1;
        progressed = true;
      }
      if (!progressed) break;
      // a failed message waits for its pause: another look finds only what is due
      if (batch.length < 50) break;
    }
    if (++passes % 100 === 1) await housekeep(db, timings);
    await wakeWhenDue();
    return sent;
  }

  /** Wakes again when the next mail is due: an unseen notification's wait, a batch's or a digest's interval, a retry's pause. */
  async function wakeWhenDue(): Promise<void> {
    const { rows } = await db.raw<{ rows: { ms: number | null }[] }>(
      `SELECT ceil(extract(epoch FROM least(
          (SELECT min(due_at) FROM ${MAIL_SCHEMA}.outbox WHERE state = 'pending' AND delivery = 'email'),
          (SELECT min(next_attempt_at) FROM ${MAIL_SCHEMA}.messages WHERE state = 'sending')
        ) - now()) * 1000)::integer AS ms`,
    );
    const ms = rows[0]?.ms;
    if (ms === null || ms === undefined || stopped) return;
    if (timer) clearTimeout(timer);
    // the batch interval may hold a due group back: look again no later than the poll
    timer = setTimeout(wake, Math.min(Math.max(0, ms) + 50, timings.pollMs));
    timer.unref();
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((error) => log.warn({ err: error }, 'the notification mailer failed a pass; trying again later'));
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  }

  const listener = listenForNotifications({
    connectionString: options.connectionString,
    channels: options.wakeChannels,
    applicationName: 'forum-notification-mailer',
    logger: log,
    onNotification: wake,
    onListening: wake,
  });
  const poll = setInterval(wake, timings.pollMs);
  poll.unref();
  void listener.started.catch(() => wake());
  log.info({ mail: options.mailer.mode }, 'notification mailer started');

  return {
    async pass() {
      while (running) await running;
      return pass();
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      await listener.close();
      await running;
    },
  };
}
