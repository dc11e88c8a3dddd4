import { randomBytes, randomUUID } from 'node:crypto';
import { EMAIL_BATCH_SECONDS, EMAIL_UNSEEN_SECONDS } from '@forum/contracts';
import { startNotificationMailer, type NotificationMailer } from '@forum/mailer';
import { createLogger, createMailer, prepareMailbox, unsubscribeTokens } from '@forum/platform';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMailLog, type MailLog } from '../testing/mail-log.ts';

/**
 * The notifications' mailer over the read models the projections make from real events (users,
 * posts, notifications, preferences), the mail port the development mailbox. Time moves by making the
 * notifications and the outbox older.
 */
let log: MailLog;
let mailer: NotificationMailer;
const unseen = EMAIL_UNSEEN_SECONDS + 1;

beforeAll(async () => {
  log = await startMailLog('notification_mailer');
  await prepareMailbox(log.db);
  const logger = createLogger('notification-mailer-test', 'silent');
  mailer = await startNotificationMailer({
    db: log.db,
    connectionString: log.url,
    wakeChannels: null,
    mailer: createMailer(undefined, log.db, logger),
    tokens: unsubscribeTokens(randomBytes(32)),
    emailVerified: () => Promise.resolve(true),
    origin: 'https://forum.example',
    timings: { unseenMs: EMAIL_UNSEEN_SECONDS * 1000, batchMs: EMAIL_BATCH_SECONDS * 1000, digestIntervalMs: 86_400_000, pollMs: 600_000 },
    logger,
  });
}, 120_000);
afterAll(async () => {
  await mailer?.stop();
  await log?.stop();
});

let alice: string;
let bob: string;
beforeEach(async () => {
  alice = `u-alice-${randomUUID()}`;
  bob = `u-bob-${randomUUID()}`;
  await log.given(log.registered(alice, 'Alice'), log.registered(bob, 'Bob'));
});

/** Time passes: what the notifications and the outbox hold moves `seconds` back. */
async function later(seconds: number): Promise<void> {
  const back = 'make_interval(secs => :seconds)';
  await log.db.raw(`UPDATE read.notifications SET created_at = created_at - ${back}, updated_at = updated_at - ${back}`, { seconds });
  await log.db.raw(`UPDATE mail.outbox SET created_at = created_at - ${back}, due_at = due_at - ${back}, enqueued_at = enqueued_at - ${back}`, { seconds });
  await log.db.raw(`UPDATE mail.messages SET composed_at = composed_at - ${back}, next_attempt_at = next_attempt_at - ${back}`, { seconds });
}
const mailsTo = async (userId: string) =>
  (
    await log.db.raw<{ rows: { subject: string }[] }>('SELECT subject FROM identity.mailbox WHERE recipient = ? ORDER BY id', [`${userId}@forum.test`])
  ).rows.map((row) => row.subject);

describe('comments on a member’s post, as the projection collapses them', () => {
  it('are mailed once the reply has gone unseen, once per notification: the comments that join it meanwhile are in that mail, those after it in none', async () => {
    const postId = randomUUID();
    await log.given(log.post(postId, alice, 'Hooks in depth'), log.comment(postId, bob, 10));
    expect(await mailer.pass()).toBe(0);
    await log.given(log.comment(postId, bob));
    await later(unseen);
    expect(await log.notifications(alice)).toEqual([expect.objectContaining({ kind: 'reply', count: 2 })]);
    expect(await mailer.pass()).toBe(1);
    await log.given(log.comment(postId, bob));
    await later(EMAIL_BATCH_SECONDS + 1);
    expect(await mailer.pass()).toBe(0);
    expect(await mailsTo(alice)).toEqual(['[Forum] 2 new comments on your post “Hooks in depth”']);
  });
});

describe('a moderator’s warning', () => {
  it('is found by its log position like every other row, and mailed once', async () => {
    await log.given(log.warned(bob, 'Please stay polite', unseen));
    expect(await mailer.pass()).toBe(1);
    await later(EMAIL_BATCH_SECONDS + 1);
    expect(await mailer.pass()).toBe(0);
    expect(await mailsTo(bob)).toEqual(['[Forum] A moderator warned you: Please stay polite']);
  });
});

describe('what the member chose, and who is never mailed', () => {
  it('a member who chose the app for replies gets none by email; a disabled or erased member none at all', async () => {
    const postId = randomUUID();
    const [carol, dan] = [`u-carol-${randomUUID()}`, `u-dan-${randomUUID()}`];
    await log.given(log.registered(carol, 'Carol'), log.registered(dan, 'Dan'), log.prefers(alice, { reply: 'app' }));
    await log.given(log.post(postId, alice, 'A post'), log.comment(postId, carol, unseen));
    const theirs = [randomUUID(), randomUUID()];
    await log.given(log.post(theirs[0]!, carol, 'Carol’s'), log.post(theirs[1]!, dan, 'Dan’s'));
    await log.given(log.comment(theirs[0]!, bob, unseen), log.comment(theirs[1]!, bob, unseen), log.disabled(carol), log.erased(dan));
    expect(await mailer.pass()).toBe(0);
    for (const who of [alice, carol, dan]) expect(await mailsTo(who)).toEqual([]);
    const { rows } = await log.db.raw<{ rows: unknown[] }>('SELECT 1 FROM mail.outbox WHERE user_id = ANY(?)', [[alice, carol, dan]]);
    expect(rows).toEqual([]);
  });
});
