import { randomBytes } from 'node:crypto';
import { createKnex, createLogger, createMailer, unsubscribeTokens, type Knex } from '@forum/platform';
import { createTestDatabase, decodeQuotedPrintable, startTestSmtpServer, type TestSmtpServer } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotificationMailer, type NotificationMailer } from './reactor.ts';
import { createReadModels, member, notify, post } from './testing/read-models.ts';

/**
 * The notifications' mail through SMTP (nodemailer for real) to a tiny SMTP server of the test: the
 * headers a mail client reads, and a server that refuses for a while.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let smtp: TestSmtpServer;
let mailer: NotificationMailer;
const tokens = unsubscribeTokens(randomBytes(32));

beforeAll(async () => {
  database = await createTestDatabase('mailer_smtp');
  db = createKnex(database.url);
  await createReadModels(db);
  smtp = await startTestSmtpServer();
  const logger = createLogger('mailer-smtp-test', 'silent');
  mailer = await startNotificationMailer({
    db,
    connectionString: database.url,
    wakeChannels: null,
    mailer: createMailer({ smtpUrl: smtp.url, from: 'Forum <no-reply@forum.example>' }, db, logger),
    tokens,
    emailVerified: () => Promise.resolve(true),
    origin: 'https://forum.example',
    timings: { unseenMs: 0, batchMs: 300_000, digestIntervalMs: 86_400_000, pollMs: 600_000 },
    logger,
  });
});
afterAll(async () => {
  await mailer?.stop();
  await smtp?.close();
  await db?.destroy();
  await database?.drop();
});

describe('a notification email through SMTP', () => {
  it("carries the notification's id in its Message-ID, RFC 8058's headers, and a text and an HTML part; a refusal is tried again later", async () => {
    const postId = await post(db, 'Queues & <b>locks</b>');
    await member(db, 'u-alice', 'Alice');
    await member(db, 'u-bob', 'Bob');
    const id = await notify(db, { userId: 'u-alice', kind: 'mention', postId, actorId: 'u-bob', ageSeconds: 1 });

    smtp.refusing = true;
    expect(await mailer.pass()).toBe(0);
    const { rows: waiting } = await db.raw<{ rows: { attempts: number; later: boolean }[] }>(
      "SELECT attempts, next_attempt_at > now() AS later FROM mail.messages WHERE state = 'sending'",
    );
    expect(waiting).toEqual([{ attempts: 1, later: true }]);
    expect(await mailer.pass()).toBe(0);

    smtp.refusing = false;
    await db.raw("UPDATE mail.messages SET next_attempt_at = now() - interval '1 second'");
    expect(await mailer.pass()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    // the header section, its folded lines unfolded
    const headers = mail.data.slice(0, mail.data.indexOf('\n\n')).replace(/\n[ \t]+/g, ' ');
    expect(mail.to).toEqual(['u-alice@forum.test']);
    expect(headers).toMatch(new RegExp(`^Message-ID: <notification-${id}@forum\\.example>$`, 'm'));
    expect(headers).toMatch(/^List-Unsubscribe: <https:\/\/forum\.example\/api\/unsubscribe\?token=[^>\s]+>$/m);
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(headers).toMatch(/^Content-Type: multipart\/alternative;/m);
    const body = decodeQuotedPrintable(mail.data);
    expect(body).toContain('Content-Type: text/plain');
    expect(body).toContain('Content-Type: text/html');
    expect(body).toContain('Queues &#38; &#60;b&#62;locks&#60;/b&#62;');
    // the link's token stands for the member and the kind mailed
    const token = decodeURIComponent(/unsubscribe\?token=([^>\s]+)>/.exec(headers)![1]!);
    expect(tokens.verify(token)).toEqual({ userId: 'u-alice', kinds: ['mention'] });
  });
});
