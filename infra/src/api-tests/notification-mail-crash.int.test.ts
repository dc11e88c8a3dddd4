import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMAIL_UNSEEN_SECONDS } from '@forum/contracts';
import { startNotificationMailer } from '@forum/mailer';
import { createLogger, createMailer, prepareMailbox, unsubscribeTokens } from '@forum/platform';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailLog, type LogEvent, type MailLog } from '../testing/mail-log.ts';

/**
 * The outbox under kill -9, over the read models the projections make from real events: a mailer
 * process killed in the middle of a mail (the development mailbox's row written, its transaction not
 * committed: mailer/src/testing/crash-fixture.ts), then another mailer: every due mail is in the
 * mailbox exactly once.
 */
const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../mailer/src/testing/crash-fixture.ts');
const MEMBERS = 60;
const CRASH_AT = 25;
let log: MailLog;

beforeAll(async () => {
  log = await startMailLog('mailer_crash');
  await prepareMailbox(log.db);
}, 120_000);
afterAll(() => log?.stop());

const count = async (sql: string) => Number((await log.db.raw<{ rows: { n: string }[] }>(sql)).rows[0]!.n);

describe('a mailer killed while it sends', () => {
  it('leaves no mail twice and none lost: after another mailer, each due mail is in the mailbox once', { timeout: 120_000 }, async () => {
    // each member's post gets a comment by Bob, unseen for longer than a reply waits
    const events: LogEvent[] = [log.registered('u-bob', 'Bob')];
    for (let n = 0; n < MEMBERS; n++) {
      const postId = randomUUID();
      events.push(log.registered(`u-${n}`, `Member ${n}`), log.post(postId, `u-${n}`, `Post ${n}`), log.comment(postId, 'u-bob', EMAIL_UNSEEN_SECONDS + 1));
    }
    await log.given(...events);

    const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, DATABASE_URL: log.url, CRASH_AT: String(CRASH_AT) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    expect(exit, stderr).toEqual({ code: null, signal: 'SIGKILL' });

    // the mail it was writing went with its transaction; the message is still to send
    expect(await count('SELECT count(*) AS n FROM identity.mailbox')).toBe(CRASH_AT - 1);
    expect(await count("SELECT count(*) AS n FROM mail.messages WHERE state = 'sent'")).toBe(CRASH_AT - 1);
    expect(await count("SELECT count(*) AS n FROM mail.messages WHERE state = 'sending'")).toBeGreaterThan(0);

    const logger = createLogger('mailer-crash-test', 'silent');
    const mailer = await startNotificationMailer({
      db: log.db,
      connectionString: log.url,
      wakeChannels: null,
      mailer: createMailer(undefined, log.db, logger),
      tokens: unsubscribeTokens(randomBytes(32)),
      emailVerified: () => Promise.resolve(true),
      origin: 'https://forum.example',
      timings: { unseenMs: EMAIL_UNSEEN_SECONDS * 1000, batchMs: 300_000, digestIntervalMs: 86_400_000, pollMs: 600_000 },
      logger,
    });
    try {
      // the killed session's lock goes when PostgreSQL sees its client gone: pass until every mail is out
      await waitFor(
        async () => (await mailer.pass(), count("SELECT count(*) AS n FROM mail.outbox WHERE state <> 'sent'")),
        (left) => left === 0,
      );
    } finally {
      await mailer.stop();
    }
    const { rows: mails } = await log.db.raw<{ rows: { recipient: string }[] }>('SELECT recipient FROM identity.mailbox');
    expect(mails).toHaveLength(MEMBERS);
    expect(new Set(mails.map((mail) => mail.recipient)).size).toBe(MEMBERS);
    expect(await count("SELECT count(*) AS n FROM mail.messages WHERE state <> 'sent'")).toBe(0);
  });
});
