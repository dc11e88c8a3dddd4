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
const DAY = 24 * 60 * 60;
const unseen = EMAIL_UNSEEN_SECONDS + 1;
const unverified = new Set<string>();

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
    emailVerified: (userId) => Promise.resolve(!unverified.has(userId)),
    origin: 'https://forum.example',
    timings: { unseenMs: EMAIL_UNSEEN_SECONDS * 1000, batchMs: EMAIL_BATCH_SECONDS * 1000, digestIntervalMs: DAY * 1000, pollMs: 600_000 },
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
  // the mailer's passes count every member's mail: an earlier test's outbox is not this one's (its
  // notifications are below the mailer's mark, never enqueued again)
  await log.db.raw('TRUNCATE mail.outbox, mail.messages, mail.groups');
  unverified.clear();
  alice = `u-alice-${randomUUID()}`;
  bob = `u-bob-${randomUUID()}`;
  await log.given(log.registered(alice, 'Alice'), log.registered(bob, 'Bob'));
});

/** Time passes: what the notifications and the outbox hold (its groups' readiness too) moves `seconds` back. */
async function later(seconds: number): Promise<void> {
  const back = 'make_interval(secs => :seconds)';
  await log.db.raw(`UPDATE read.notifications SET created_at = created_at - ${back}, updated_at = updated_at - ${back}`, { seconds });
  await log.db.raw(`UPDATE mail.outbox SET created_at = created_at - ${back}, due_at = due_at - ${back}, enqueued_at = enqueued_at - ${back}`, { seconds });
  await log.db.raw(`UPDATE mail.messages SET composed_at = composed_at - ${back}, next_attempt_at = next_attempt_at - ${back}`, { seconds });
  await log.db.raw(`UPDATE mail.groups SET ready_at = ready_at - ${back}`, { seconds });
}
const mailsTo = async (userId: string) =>
  (
    await log.db.raw<{ rows: { subject: string }[] }>('SELECT subject FROM identity.mailbox WHERE recipient = ? ORDER BY id', [`${userId}@forum.test`])
  ).rows.map((row) => row.subject);
const bodiesTo = async (userId: string) =>
  (await log.db.raw<{ rows: { body: string }[] }>('SELECT body FROM identity.mailbox WHERE recipient = ? ORDER BY id', [`${userId}@forum.test`])).rows.map(
    (row) => row.body,
  );
/** A post of `authorId`'s, made; answers its id. */
async function postOf(authorId: string, title: string, tags: string[] = []): Promise<string> {
  const postId = randomUUID();
  await log.given(log.post(postId, authorId, title, tags));
  return postId;
}

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

describe('what a look reads', () => {
  it('only rows made or moved since the last look: a preference chosen later applies to what comes after it; warnings are found the same way', async () => {
    const handle = `alice${randomUUID().slice(0, 8)}`;
    await log.given(log.handle(alice, handle), log.prefers(alice, { reply: 'app' }));
    const [own, bobs] = [await postOf(alice, 'A post'), await postOf(bob, 'Bob’s')];
    await log.given(log.comment(own, bob, unseen));
    const [before] = await log.notifications(alice);
    await mailer.pass();
    await log.given(log.prefers(alice, { reply: 'email' }), log.comment(bobs, bob, unseen, `Hello @${handle}`), log.warned(bob, 'Please stay polite', unseen));
    expect(await mailer.pass()).toBe(2);
    expect(await mailsTo(alice)).toEqual(['[Forum] Bob mentioned you in “Bob’s”']);
    expect(await mailsTo(bob)).toEqual(['[Forum] A moderator warned you: Please stay polite']);
    const { rows } = await log.db.raw<{ rows: unknown[] }>('SELECT 1 FROM mail.outbox WHERE notification_id = ?', [before!.id]);
    expect(rows).toEqual([]);
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

describe('what staff did to a member’s post or account', () => {
  it('says which action, why, and until when: a hidden post, then a suspension', async () => {
    const postId = await postOf(bob, 'Cheap pills');
    await log.given(log.postHidden(postId, bob, 'Spam', unseen));
    expect(await mailer.pass()).toBe(1);
    expect(await mailsTo(bob)).toEqual(['[Forum] A moderator hid your post “Cheap pills”: Spam']);
    await later(EMAIL_BATCH_SECONDS + 1);
    const until = '2026-12-24T12:00:00.000Z';
    await log.given(log.suspended(bob, 'Spam in three threads', until, unseen));
    expect(await mailer.pass()).toBe(1);
    expect((await mailsTo(bob)).at(-1)).toBe(`[Forum] Your account is suspended until ${new Date(until).toUTCString()}: Spam in three threads`);
    expect((await bodiesTo(bob)).at(-1)).toContain('Spam in three threads');
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

describe('read in the app meanwhile, too old, or not wanted by email', () => {
  it('is not mailed when read in the app meanwhile, when older than a day, nor when the member chose app, off or the digest', async () => {
    const carol = `u-carol-${randomUUID()}`;
    await log.given(log.registered(carol, 'Carol'), log.prefers(bob, { reply: 'app', 'followed-post': 'digest' }), log.prefers(carol, { reply: 'off' }));
    const [aliceOwn, aliceOld, bobOwn, carolOwn] = [
      await postOf(alice, 'A post'),
      await postOf(alice, 'Old'),
      await postOf(bob, 'Bob’s'),
      await postOf(carol, 'Carol’s'),
    ];
    await log.given(log.comment(aliceOwn, bob, 10), log.comment(carolOwn, bob, unseen));
    await mailer.pass();
    const [read] = await log.notifications(alice);
    await log.given(log.read(alice, [read!.id]));
    await later(unseen);
    await log.given(log.comment(aliceOld, bob, DAY + 1), log.comment(bobOwn, alice, unseen), log.comment(carolOwn, alice, unseen));
    expect((await log.notifications(bob)).map((row) => row.kind).sort()).toEqual(['followed-post', 'reply']);
    expect(await mailer.pass()).toBe(0);
    for (const who of [alice, bob, carol]) expect(await mailsTo(who)).toEqual([]);
    expect((await log.db.raw<{ rows: { state: string }[] }>('SELECT state FROM mail.outbox WHERE notification_id = ?', [read!.id])).rows).toEqual([
      { state: 'skipped' },
    ]);
  });
});

describe('batching', () => {
  it(`sends at most one email per member and kind in ${EMAIL_BATCH_SECONDS} s: what comes meanwhile goes in the next, together`, async () => {
    const handle = `alice${randomUUID().slice(0, 8)}`;
    await log.given(log.handle(alice, handle));
    const posts = [await postOf(alice, 'One'), await postOf(alice, 'Two'), await postOf(alice, 'Three')];
    const busy = await postOf(bob, 'Busy thread');
    await log.given(...posts.map((postId, n) => log.comment(postId, bob, unseen + n)), log.comment(busy, bob, unseen, `Thanks @${handle}`));
    expect(await mailer.pass()).toBe(2);
    expect((await mailsTo(alice)).sort()).toEqual(['[Forum] 3 new replies to your posts', '[Forum] Bob mentioned you in “Busy thread”']);
    const more = [await postOf(alice, 'Four'), await postOf(alice, 'Five')];
    await log.given(...more.map((postId) => log.comment(postId, bob, unseen)));
    expect(await mailer.pass()).toBe(0);
    await later(EMAIL_BATCH_SECONDS - 5);
    expect(await mailer.pass()).toBe(0);
    await later(10);
    expect(await mailer.pass()).toBe(1);
    expect((await mailsTo(alice)).at(-1)).toBe('[Forum] 2 new replies to your posts');
  });
});

describe('the daily digest', () => {
  it('gathers what the member wanted in the digest and has not seen, once a day after the oldest waited or the last digest', async () => {
    const carol = `u-carol-${randomUUID()}`;
    await log.given(log.registered(carol, 'Carol'), log.prefers(alice, { reply: 'digest' }), log.followsTag(alice, 'go'));
    await log.given(log.post(randomUUID(), bob, 'Generics', ['go'], 3600));
    const own = await postOf(alice, 'Mine');
    await log.given(log.comment(own, bob, 60));
    expect(await mailer.pass()).toBe(0);
    await later(DAY - 3600);
    expect(await mailer.pass()).toBe(1);
    expect(await mailsTo(alice)).toEqual(['[Forum] Your digest: 2 notifications you have not seen']);
    const [digest] = await bodiesTo(alice);
    expect(digest).toContain('Bob posted “Generics” in #go');
    expect(digest).toContain('Bob commented on your post “Mine”');
    expect(digest).toMatch(/Stop emails of this digest: https:\/\/forum\.example\/unsubscribe\?token=\S+/);
    // the next one waits a day after this one, however old what it gathers
    await log.given(log.post(randomUUID(), carol, 'Rust', ['go'], DAY - 10));
    expect(await mailer.pass()).toBe(0);
    await later(DAY - 20);
    expect(await mailer.pass()).toBe(0);
    await later(20);
    expect(await mailer.pass()).toBe(1);
    expect((await mailsTo(alice)).at(-1)).toBe('[Forum] Your digest: 1 notification you have not seen');
  });
});

describe('who is never mailed', () => {
  it('an unverified, a disabled or an erased member; an erased member’s outbox rows go', async () => {
    const [carol, dan, erin] = [`u-carol-${randomUUID()}`, `u-dan-${randomUUID()}`, `u-erin-${randomUUID()}`];
    unverified.add(carol);
    await log.given(log.registered(carol, 'Carol'), log.registered(dan, 'Dan'), log.registered(erin, 'Erin'), log.disabled(dan));
    const theirs = [await postOf(carol, 'Carol’s'), await postOf(dan, 'Dan’s'), await postOf(erin, 'Erin’s')];
    await log.given(...theirs.map((postId) => log.comment(postId, bob, 10)));
    await mailer.pass();
    const outbox = async () =>
      (
        await log.db.raw<{ rows: { user_id: string; state: string }[] }>('SELECT user_id, state FROM mail.outbox WHERE user_id = ANY(?) ORDER BY user_id', [
          [carol, dan, erin],
        ])
      ).rows;
    expect((await outbox()).map((row) => row.user_id)).toEqual([carol, erin]);
    await log.given(log.erased(erin));
    await later(unseen);
    expect(await mailer.pass()).toBe(0);
    for (const who of [carol, dan, erin]) expect(await mailsTo(who)).toEqual([]);
    expect(await outbox()).toEqual([{ user_id: carol, state: 'skipped' }]);
  });
});
