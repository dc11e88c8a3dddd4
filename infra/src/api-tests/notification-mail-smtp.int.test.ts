import { randomBytes, randomUUID } from 'node:crypto';
import { startNotificationMailer, type NotificationMailer } from '@forum/mailer';
import { createLogger, createMailer, unsubscribeTokens } from '@forum/platform';
import { decodeQuotedPrintable, startTestSmtpServer, type TestSmtpServer } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailLog, type MailLog } from '../testing/mail-log.ts';

/**
 * The notifications' mail through SMTP (nodemailer for real) to a tiny SMTP server of the test: the
 * headers a mail client reads, and a server that refuses for a while.
 */
let log: MailLog;
let smtp: TestSmtpServer;
let mailer: NotificationMailer;
const tokens = unsubscribeTokens(randomBytes(32));

beforeAll(async () => {
  log = await startMailLog('mailer_smtp');
  smtp = await startTestSmtpServer();
  const logger = createLogger('mailer-smtp-test', 'silent');
  mailer = await startNotificationMailer({
    db: log.db,
    connectionString: log.url,
    wakeChannels: null,
    mailer: createMailer({ smtpUrl: smtp.url, from: 'Forum <no-reply@forum.example>' }, log.db, logger),
    tokens,
    emailVerified: () => Promise.resolve(true),
    origin: 'https://forum.example',
    timings: { unseenMs: 0, batchMs: 300_000, digestIntervalMs: 86_400_000, pollMs: 600_000 },
    logger,
  });
}, 120_000);
afterAll(async () => {
  await mailer?.stop();
  await smtp?.close();
  await log?.stop();
});

describe('a notification email through SMTP', () => {
  it("carries the notification's id in its Message-ID, RFC 8058's headers, and a text and an HTML part; a refusal is tried again later", async () => {
    const postId = randomUUID();
    await log.given(log.registered('u-alice', 'Alice'), log.registered('u-bob', 'Bob'));
    await log.given(log.post(postId, 'u-alice', 'Queues & <b>locks</b>'), log.comment(postId, 'u-bob'));
    const [notification] = await log.notifications('u-alice');
    const id = notification!.id;

    smtp.refusing = true;
    expect(await mailer.pass()).toBe(0);
    const { rows: waiting } = await log.db.raw<{ rows: { attempts: number; later: boolean }[] }>(
      "SELECT attempts, next_attempt_at > now() AS later FROM mail.messages WHERE state = 'sending'",
    );
    expect(waiting).toEqual([{ attempts: 1, later: true }]);
    expect(await mailer.pass()).toBe(0);

    smtp.refusing = false;
    await log.db.raw("UPDATE mail.messages SET next_attempt_at = now() - interval '1 second'");
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
    expect(tokens.verify(token)).toEqual({ userId: 'u-alice', kinds: ['reply'] });
  });
});
