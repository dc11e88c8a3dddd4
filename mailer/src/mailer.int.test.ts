import { randomBytes } from 'node:crypto';
import { EMAIL_BATCH_SECONDS, EMAIL_UNSEEN_SECONDS } from '@forum/contracts';
import { createKnex, createLogger, createMailer, prepareMailbox, unsubscribeTokens, type Knex } from '@forum/platform';
import { containing, createTestDatabase, explainInto, type KnexPool } from '@forum/platform/testing';
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

const logger = createLogger('mailer-test', 'silent');

/** A mailer on `through` (another process, or this one started again), driven pass by pass. */
const startMailer = (through: Knex) =>
  startNotificationMailer({
    db: through,
    connectionString: database.url,
    wakeChannels: null,
    mailer: createMailer(undefined, through, logger),
    tokens,
    emailVerified: () => Promise.resolve(true),
    origin: 'https://forum.example',
    timings,
    logger,
  });

beforeAll(async () => {
  database = await createTestDatabase('mailer');
  db = createKnex(database.url);
  await createReadModels(db);
  await prepareMailbox(db);
  mailer = await startMailer(db);
});
afterAll(async () => {
  await mailer?.stop();
  await db?.destroy();
  await database?.drop();
});
beforeEach(async () => {
  await db.raw(
    'TRUNCATE read.notifications, read.users, read.account_denials, read.posts, read.notification_preferences, mail.outbox, mail.messages, mail.groups, identity.mailbox',
  );
  await member(db, 'u-alice', 'Alice');
  await member(db, 'u-bob', 'Bob');
});

const unseen = EMAIL_UNSEEN_SECONDS + 1;
/** Time passes: every time the notifications and the outbox hold (its groups' readiness too) moves `seconds` back. */
async function later(seconds: number): Promise<void> {
  const back = 'make_interval(secs => :seconds)';
  await db.raw(`UPDATE read.notifications SET created_at = created_at - ${back}, updated_at = updated_at - ${back}`, { seconds });
  await db.raw(`UPDATE mail.outbox SET created_at = created_at - ${back}, due_at = due_at - ${back}, enqueued_at = enqueued_at - ${back}`, { seconds });
  await db.raw(`UPDATE mail.messages SET composed_at = composed_at - ${back}, next_attempt_at = next_attempt_at - ${back}`, { seconds });
  await db.raw(`UPDATE mail.groups SET ready_at = ready_at - ${back}`, { seconds });
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

describe('a backlog of mail', () => {
  it('is read by its groups: the ready ones and the next by their index, a group’s rows by theirs, however stale the outbox’s statistics', async () => {
    // a backlog of 20,000 due replies of 400 members, enqueued at once: the outbox's statistics do not know it yet
    await db.raw(`INSERT INTO read.users (id, email, name) SELECT 'u-' || i, 'u-' || i || '@forum.test', 'Member ' || i FROM generate_series(1, 400) i`);
    await db.raw(
      `INSERT INTO read.notifications (id, user_id, kind, actor_id, count, created_at, updated_at, read, position)
       SELECT gen_random_uuid(), 'u-' || (i % 400 + 1), 'reply', 'u-bob', 1, now() - make_interval(secs => :age), now(), false, nextval('read.log_positions')
       FROM generate_series(1, 20000) i`,
      { age: unseen },
    );
    expect(await mailer.pass()).toBe(100);

    // another mailer's pass on one connection, its statements' plans as notices (auto_explain ships with PostgreSQL)
    const one = createKnex(database.url, { min: 1, max: 1 });
    const plans: string[] = [];
    try {
      const pool = one.client as KnexPool;
      const connection = await pool.acquireConnection();
      await explainInto(connection, plans);
      await pool.releaseConnection(connection);
      const other = await startMailer(one);
      expect(await other.pass()).toBe(100);
      await other.stop();
    } finally {
      await one.destroy();
    }

    const of = (text: string) => plans.filter((plan) => plan.includes(text));
    const ready = of('ready_at <= now()');
    const next = of('min(ready_at)');
    expect([ready.length, next.length]).toEqual([1, 1]);
    for (const plan of [...ready, ...next]) expect(plan).not.toContain('outbox');
    expect(ready[0]).toContain('groups_email_ready');
    expect(next[0]).toContain('groups_email_ready');
    const groupsRows = [...of('SELECT notification_id FROM mail.outbox'), ...of('UPDATE mail.groups SET ready_at')];
    expect(groupsRows).toHaveLength(200);
    // by the member's rows: not the whole backlog through the index of every pending row by due time
    for (const plan of groupsRows) {
      expect(plan).toMatch(/Index Cond: \(+user_id = /);
      expect(plan).not.toMatch(/Seq Scan|outbox_pending /);
    }
  });

  it('two mailers at once mail each member once, and lose none of the rows that come meanwhile', async () => {
    const due = (from: number, to: number) =>
      db.raw(
        `INSERT INTO read.notifications (id, user_id, kind, actor_id, count, created_at, updated_at, read, position)
         SELECT gen_random_uuid(), 'u-' || i, 'reply', 'u-bob', 1, now() - make_interval(secs => :age), now(), false, nextval('read.log_positions')
         FROM generate_series(:from::int, :to::int) i`,
        { age: unseen, from, to },
      );
    await db.raw(`INSERT INTO read.users (id, email, name) SELECT 'u-' || i, 'u-' || i || '@forum.test', 'Member ' || i FROM generate_series(1, 600) i`);
    await due(1, 300);
    const two = createKnex(database.url, { max: 4 });
    const other = await startMailer(two);
    try {
      const passes = async (mailer: NotificationMailer) => {
        let sent = 0;
        for (let i = 0; i < 4; i++) sent += await mailer.pass();
        return sent;
      };
      // the rows of 300 more members come while both pass
      await Promise.all([passes(mailer), passes(other), due(301, 450).then(() => due(451, 600))]);
      while ((await mailer.pass()) + (await other.pass()) > 0);
    } finally {
      await other.stop();
      await two.destroy();
    }
    const recipients = (await mailbox(db)).map((mail) => mail.recipient);
    expect(recipients).toHaveLength(600);
    expect(new Set(recipients).size).toBe(600);
    const { rows } = await db.raw<{ rows: { waiting: number; ready: number }[] }>(
      `SELECT (SELECT count(*)::int FROM mail.outbox WHERE state = 'pending') AS waiting, (SELECT count(*)::int FROM mail.groups WHERE ready_at < 'infinity') AS ready`,
    );
    expect(rows).toEqual([{ waiting: 0, ready: 0 }]);
  });

  it('enqueued without its groups (a mailer of an earlier version, beside this one in a rolling upgrade) is mailed by the 100th look at the latest', async () => {
    await notify(db, { userId: 'u-alice', kind: 'reply', actorId: 'u-bob', ageSeconds: EMAIL_UNSEEN_SECONDS - 30 });
    expect(await mailer.pass()).toBe(0);
    await db.raw('DELETE FROM mail.groups');
    await later(60);
    let sent = 0;
    for (let look = 0; look < 100 && sent === 0; look++) sent += await mailer.pass();
    expect(sent).toBe(1);
  });

  it('kept from before the groups (or with its groups lost) is mailed once the mailer starts again', async () => {
    await notify(db, { userId: 'u-alice', kind: 'reply', actorId: 'u-bob', ageSeconds: EMAIL_UNSEEN_SECONDS - 30 });
    expect(await mailer.pass()).toBe(0);
    await db.raw('DELETE FROM mail.groups');
    await later(60);
    expect(await mailer.pass()).toBe(0);
    const again = await startMailer(db);
    try {
      expect(await again.pass()).toBe(1);
    } finally {
      await again.stop();
    }
  });
});
