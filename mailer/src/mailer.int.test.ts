import { randomBytes } from 'node:crypto';
import { EMAIL_BATCH_SECONDS, EMAIL_UNSEEN_SECONDS } from '@forum/contracts';
import { createKnex, createLogger, createMailer, prepareMailbox, unsubscribeTokens, type Knex } from '@forum/platform';
import { containing, createTestDatabase } from '@forum/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startNotificationMailer, type NotificationMailer } from './reactor.ts';
import { createReadModels, mailbox, member, notify, post } from './testing/read-models.ts';

/**
 * The notifications' mailer against a real PostgreSQL: the read models are tables of the test's own
 * database in the projections' shape (testing/read-models.ts), the mail port is the development
 * mailbox. Time moves by making rows older.
 */
const DAY = 24 * 60 * 60;
const timings = { unseenMs: EMAIL_UNSEEN_SECONDS * 1000, batchMs: EMAIL_BATCH_SECONDS * 1000, digestIntervalMs: DAY * 1000, pollMs: 600_000 };
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let mailer: NotificationMailer;
const tokens = unsubscribeTokens(randomBytes(32));

beforeAll(async () => {
  database = await createTestDatabase('mailer');
  db = createKnex(database.url);
  await createReadModels(db);
  await prepareMailbox(db);
  const logger = createLogger('mailer-test', 'silent');
  mailer = await startNotificationMailer({
    db,
    connectionString: database.url,
    wakeChannels: null,
    mailer: createMailer(undefined, db, logger),
    tokens,
    emailVerified: () => Promise.resolve(true),
    origin: 'https://forum.example',
    timings,
    logger,
  });
});
afterAll(async () => {
  await mailer?.stop();
  await db?.destroy();
  await database?.drop();
});
beforeEach(async () => {
  await db.raw(
    'TRUNCATE read.notifications, read.users, read.account_denials, read.posts, read.notification_preferences, mail.outbox, mail.messages, identity.mailbox',
  );
  await member(db, 'u-alice', 'Alice');
  await member(db, 'u-bob', 'Bob');
});

const unseen = EMAIL_UNSEEN_SECONDS + 1;
/** Time passes: every time the notifications and the outbox hold moves `seconds` back. */
async function later(seconds: number): Promise<void> {
  const back = 'make_interval(secs => :seconds)';
  await db.raw(`UPDATE read.notifications SET created_at = created_at - ${back}, updated_at = updated_at - ${back}`, { seconds });
  await db.raw(`UPDATE mail.outbox SET created_at = created_at - ${back}, due_at = due_at - ${back}, enqueued_at = enqueued_at - ${back}`, { seconds });
  await db.raw(`UPDATE mail.messages SET composed_at = composed_at - ${back}, next_attempt_at = next_attempt_at - ${back}`, { seconds });
}

describe('a reply mailed at once (delivery email, the default)', () => {
  it(`is mailed once it has gone unseen for ${EMAIL_UNSEEN_SECONDS} s, once: not before, and never again (another pass, the same row rebuilt)`, async () => {
    const postId = await post(db, 'Hooks in depth');
    const id = await notify(db, { userId: 'u-alice', kind: 'reply', postId, actorId: 'u-bob', ageSeconds: EMAIL_UNSEEN_SECONDS - 30 });
    expect(await mailer.pass()).toBe(0);
    await later(60);
    expect(await mailer.pass()).toBe(1);
    expect(await mailbox(db)).toEqual([
      {
        recipient: 'u-alice@forum.test',
        subject: '[Forum] Bob commented on your post “Hooks in depth”',
        body: containing(`https://forum.example/post/${postId}`),
      },
    ]);
    // a rebuild of the notifications writes the same row again
    await db.raw('DELETE FROM read.notifications');
    await notify(db, { id, userId: 'u-alice', kind: 'reply', postId, actorId: 'u-bob', ageSeconds: unseen });
    await later(EMAIL_BATCH_SECONDS + 1);
    expect(await mailer.pass()).toBe(0);
    expect(await mailbox(db)).toHaveLength(1);
  });

  it("names an erased actor 'Deleted user' and a removed post so, as the read models have them when it is sent", async () => {
    await notify(db, { userId: 'u-alice', kind: 'mention', postId: null, actorId: 'u-gone', ageSeconds: unseen });
    await mailer.pass();
    expect((await mailbox(db))[0]!.subject).toBe('[Forum] Deleted user mentioned you in a post that was removed');
  });
});

describe('what a look reads', () => {
  /** Another comment joins the unread row, as the projection collapses it: its count, time and log position move. */
  const collapse = (id: string) =>
    db.raw("UPDATE read.notifications SET count = count + 1, updated_at = now(), position = nextval('read.log_positions') WHERE id = ?", [id]);

  it('a collapsed row, moved by each comment that joins it, is mailed once, with the count it has when sent', async () => {
    const postId = await post(db, 'Busy thread');
    const id = await notify(db, { userId: 'u-alice', kind: 'reply', postId, actorId: 'u-bob', ageSeconds: 10 });
    expect(await mailer.pass()).toBe(0);
    await collapse(id);
    await later(unseen);
    await collapse(id);
    expect(await mailer.pass()).toBe(1);
    await collapse(id);
    await later(EMAIL_BATCH_SECONDS + 1);
    expect(await mailer.pass()).toBe(0);
    expect((await mailbox(db)).map((mail) => mail.subject)).toEqual(['[Forum] 3 new comments on your post “Busy thread”']);
  });
});
