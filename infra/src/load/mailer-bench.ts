/**
 * `npm run bench -- mailer`: the notifications' mailer over a large backlog, as after a mail outage
 * or a first start on a loaded forum: MAIL_PENDING (300,000) unread notifications of the last 12
 * hours, of MAIL_PENDING / 10 members, to mail (replies and mentions by email, a tag's new posts in
 * the daily digest, a followed post's comments in the app only).
 *
 * The read models are tables in the projections' shape (`@forum/mailer/testing`), the mail port the
 * development mailbox, the mailer driven pass by pass (`pass()`, as its loop calls it). Prints the
 * first pass (it enqueues the backlog), the passes after it (each composes and sends up to 100
 * members' mails) and how many mails a second that makes, for MAIL_SECONDS (60) of passes, with the
 * CPU a mail of the mailer (this process: there is no load generator) and of PostgreSQL; then what the
 * outbox holds and the passes' costliest statements (pg_stat_statements).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EMAIL_BATCH_SECONDS, EMAIL_UNSEEN_SECONDS } from '@forum/contracts';
import { startNotificationMailer } from '@forum/mailer';
import { createReadModels } from '@forum/mailer/testing';
import { createKnex, createLogger, createMailer, prepareMailbox, unsubscribeTokens } from '@forum/platform';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { STATEMENT_SETTINGS } from './command-cost.ts';
import { benchProcesses, CpuSplit } from './cpu-split.ts';

const PENDING = Number(process.env.MAIL_PENDING ?? 300_000);
const SECONDS = Number(process.env.MAIL_SECONDS ?? 60);
const say = (line: string) => process.stderr.write(`${line}\n`);
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-mailer-bench-'));
const postgres = await startEmbeddedPostgres({ dataDir, database: 'forum', fast: true, settings: STATEMENT_SETTINGS });
const db = createKnex(postgres.url, { max: 4 });
try {
  await createReadModels(db);
  await prepareMailbox(db);
  const members = Math.max(1, Math.floor(PENDING / 10));
  say(`writing ${PENDING.toLocaleString('en')} notifications of ${members.toLocaleString('en')} members…`);
  await db.raw(`INSERT INTO read.users (id, email, name) SELECT 'u-' || i, 'u-' || i || '@forum.test', 'Member ' || i FROM generate_series(1, ?) i`, [members]);
  await db.raw(`INSERT INTO read.posts (id, title) SELECT gen_random_uuid(), 'Post ' || i FROM generate_series(1, 1000) i`);
  await db.raw(
    `WITH p AS (SELECT array_agg(id) AS ids FROM read.posts)
     INSERT INTO read.notifications (id, user_id, kind, post_id, actor_id, tag, count, created_at, updated_at, read, position)
     SELECT gen_random_uuid(), 'u-' || ((i / 4) % :members + 1), k.kind, p.ids[i % 1000 + 1], 'u-' || ((i + 1) % :members + 1),
            CASE WHEN k.kind = 'followed-tag' THEN 'react' END, 1, at, at, false, nextval('read.log_positions')
     FROM generate_series(1, :pending) i CROSS JOIN p
     CROSS JOIN LATERAL (SELECT (ARRAY['reply', 'mention', 'followed-tag', 'followed-post'])[i % 4 + 1] AS kind) k
     CROSS JOIN LATERAL (SELECT now() - make_interval(secs => 43200.0 * i / :pending) AS at) t`,
    { members, pending: PENDING },
  );
  await db.raw('ANALYZE');

  const logger = createLogger('mailer-bench', 'warn');
  const mailer = await startNotificationMailer({
    db,
    connectionString: postgres.url,
    wakeChannels: null,
    mailer: createMailer(undefined, db, logger),
    tokens: unsubscribeTokens(randomBytes(32)),
    emailVerified: () => Promise.resolve(true),
    origin: 'https://forum.example',
    timings: { unseenMs: EMAIL_UNSEEN_SECONDS * 1000, batchMs: EMAIL_BATCH_SECONDS * 1000, digestIntervalMs: 24 * 60 * 60 * 1000, pollMs: 600_000 },
    logger,
  });
  try {
    let started = performance.now();
    let sent = await mailer.pass();
    const first = performance.now() - started;
    const { rows } = await db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM mail.outbox WHERE state = 'pending'`);
    say(`first pass (enqueues the backlog): ${ms(first)}, ${sent} mails sent, ${rows[0]!.n.toLocaleString('en')} waiting`);
    const times: number[] = [];
    await db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.raw('SELECT pg_stat_statements_reset()');
    const split = new CpuSplit(process.pid, benchProcesses({ mailer: process.pid }), 250);
    await split.start();
    started = performance.now();
    const sentBefore = sent;
    while (performance.now() - started < SECONDS * 1000) {
      const at = performance.now();
      const mails = await mailer.pass();
      times.push(performance.now() - at);
      sent += mails;
      if (mails === 0) break;
    }
    const took = (performance.now() - started) / 1000;
    const cpu = await split.stop();
    const perMail = (group: string) => ms(((cpu.get(group) ?? 0) * 1000) / Math.max(1, sent - sentBefore));
    const { rows: left } = await db.raw<{ rows: unknown[] }>(`SELECT state, delivery, count(*)::int AS n FROM mail.outbox GROUP BY 1, 2 ORDER BY 1, 2`);
    say(`the outbox after: ${JSON.stringify(left)}`);
    const { rows: costs } = await db.raw<{ rows: { query: string; calls: string; ms: number }[] }>(
      `SELECT query, calls::text, total_exec_time + total_plan_time AS ms FROM pg_stat_statements WHERE toplevel ORDER BY ms DESC LIMIT 8`,
    );
    say("the passes' costliest statements:");
    for (const row of costs) say(`  ${ms(row.ms).padStart(10)} ${row.calls.padStart(7)} calls  ${row.query.replace(/\s+/g, ' ').slice(0, 110)}`);
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    console.log(`| pending | first pass | passes after it | a pass: p50 / p99 | mails a second | CPU a mail: mailer / PostgreSQL |`);
    console.log(`|--:|--:|--:|--:|--:|--:|`);
    console.log(
      `| ${PENDING.toLocaleString('en')} | ${ms(first)} | ${times.length} in ${took.toFixed(1)} s | ${ms(at(0.5))} / ${ms(at(0.99))} | ${Math.round(sent / (took + first / 1000))} | ${perMail('mailer')} / ${perMail('PostgreSQL')} |`,
    );
  } finally {
    await mailer.stop();
  }
} finally {
  await db.destroy();
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
