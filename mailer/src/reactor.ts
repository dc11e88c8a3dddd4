import { randomUUID } from 'node:crypto';
import { MAIL_SCHEMA, startWakeLoop, type Knex, type Logger, type Mailer, type UnsubscribeTokens } from '@forum/platform';
import { deliver, SENDING_BATCH, sendingMessages, type EmailVerification } from './deliver.ts';
import { compose, dueGroups, enqueue, forgetErased, housekeep, nextDueMs, readModelsMade } from './outbox.ts';
import { prepareOutbox } from './schema.ts';
import type { MailerTimings } from './settings.ts';

/** A look that enqueues this many rows has the outbox's statistics gathered again (autovacuum's come a minute or more later). */
const BACKLOG_ROWS = 10_000;

export interface NotificationMailerOptions {
  /** The read models' database (read.*), where the outbox lives too (schema mail). */
  readonly db: Knex;
  /** For the session that listens for the projections' commits (`wakeChannels`). */
  readonly connectionString: string;
  /**
   * Channels whose NOTIFY means the read models moved (the projections' checkpoints): a look at once.
   * Null: the mailer never looks by itself (no LISTEN, poll nor timer), only when `pass` is called, as
   * tests drive it.
   */
  readonly wakeChannels: readonly string[] | null;
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
  let passes = 0;

  async function pass(): Promise<number> {
    // on a first start the projections make their read models after the mailer starts: nothing to look at yet
    if (!(await readModelsMade(db))) return 0;
    await forgetErased(db);
    // the first look, and every 100th: what no longer counts goes, and the waiting groups are written
    // again before any is composed (an outbox kept from before the groups, timings changed)
    if (++passes % 100 === 1) await housekeep(db, timings);
    // a backlog enqueued at once (a first start, a mailer back after a while): the statements that follow plan for it
    if ((await enqueue(db, timings)) >= BACKLOG_ROWS) await db.raw(`ANALYZE ${MAIL_SCHEMA}.outbox`);
    for (const group of await dueGroups(db)) {
      if (stopped) break;
      await compose(db, group, timings, randomUUID());
    }
    let sent = 0;
    for (let batch = await sendingMessages(db); batch.length > 0 && !stopped; batch = await sendingMessages(db)) {
      for (const id of batch) {
        if (stopped) break;
        if (await deliver(context, id)) sent += 1;
      }
      // a message that failed waits for its pause: only a full batch may leave more that are due
      if (batch.length < SENDING_BATCH) break;
    }
    await wakeWhenDue();
    return sent;
  }

  /** Wakes again when the next mail is due (nextDueMs), at the latest at the next poll. */
  async function wakeWhenDue(): Promise<void> {
    const ms = await nextDueMs(db);
    if (ms !== null) loop?.wakeIn(Math.min(ms + 50, timings.pollMs));
  }

  // one pass at a time in this process, the loop's and the ones asked for (tests)
  let passes$: Promise<unknown> = Promise.resolve();
  const serially = (): Promise<number> => {
    const next = passes$.then(pass);
    passes$ = next.catch(() => {});
    return next;
  };

  const channels = options.wakeChannels;
  const loop =
    channels &&
    startWakeLoop({
      connectionString: options.connectionString,
      channels,
      applicationName: 'forum-notification-mailer',
      logger: log,
      pollMs: timings.pollMs,
      // the projections commit often under load: a look a second at most
      minIntervalMs: 1000,
      pass: async () => void (await serially()),
      failure: 'the notification mailer failed a pass; trying again later',
    });
  log.debug({ mail: options.mailer.mode }, 'notification mailer started');

  return {
    pass: serially,
    async stop() {
      stopped = true;
      await loop?.stop();
    },
  };
}
