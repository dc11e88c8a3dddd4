import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMAIL_UNSEEN_SECONDS } from '@forum/contracts';
import { createKnex, createLogger, createMailer, prepareMailbox, unsubscribeTokens, type Knex } from '@forum/platform';
import { createTestDatabase, waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotificationMailer } from './reactor.ts';
import { createReadModels, mailbox, member, notify, post } from './testing/read-models.ts';

/**
 * The outbox under kill -9: a mailer process killed in the middle of a mail (the development mailbox's
 * row written, its transaction not committed: testing/crash-fixture.ts), then another mailer: every due
 * mail is in the mailbox exactly once.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const MEMBERS = 60;
const CRASH_AT = 25;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('mailer_crash');
  db = createKnex(database.url);
  await createReadModels(db);
  await prepareMailbox(db);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const count = async (sql: string) => Number((await db.raw<{ rows: { n: string }[] }>(sql)).rows[0]!.n);

describe('a mailer killed while it sends', () => {
  it('leaves no mail twice and none lost: after another mailer, each due mail is in the mailbox once', { timeout: 120_000 }, async () => {
    const postId = await post(db, 'A busy post');
    await member(db, 'u-bob', 'Bob');
    for (let n = 0; n < MEMBERS; n++) {
      await member(db, `u-${n}`, `Member ${n}`);
      await notify(db, { userId: `u-${n}`, kind: 'reply', postId, actorId: 'u-bob', ageSeconds: EMAIL_UNSEEN_SECONDS + 1 });
    }

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'testing/crash-fixture.ts')], {
      env: { ...process.env, DATABASE_URL: database.url, CRASH_AT: String(CRASH_AT) },
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
      db,
      connectionString: database.url,
      wakeChannels: null,
      mailer: createMailer(undefined, db, logger),
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
    const mails = await mailbox(db);
    expect(mails).toHaveLength(MEMBERS);
    expect(new Set(mails.map((mail) => mail.recipient)).size).toBe(MEMBERS);
    expect(await count("SELECT count(*) AS n FROM mail.messages WHERE state <> 'sent'")).toBe(0);
  });
});
