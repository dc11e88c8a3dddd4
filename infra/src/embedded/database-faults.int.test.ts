import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@forum/contracts';
import { freePort, runningEmbeddedUrl, startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, postmasterPid, startForumProcess, type ForumProcess } from '../testing/forum-process.ts';
import {
  expectCaughtUpAndExact,
  expectReadsAnsweredOrUnavailable,
  MEMBERS,
  postgresAnswers,
  readiness,
  reportAndKill,
  startWorkload,
  stopsInSeconds,
} from '../testing/members-writing.ts';

/**
 * npm start's forum while its PostgreSQL fails under members' writes: killed (kill -9 of the
 * postmaster), stalled (SIGSTOP of all its processes), shut down under a stop. While it cannot
 * answer, requests get 503 UNAVAILABLE (never a 500, never a hang) and /readyz says not ready;
 * afterwards every part of the forum recovers by itself, every acknowledged write is in the log
 * exactly once and the read models equal a replay. The measured times are printed (their figures
 * are in docs/reliability.md; the bounds here only tell a hang from an answer).
 */

/** How long the stall test stops PostgreSQL (the 20 s). */
const STALL_MS = 20_000;

let dataDir: string;
let port: number;
let forum: ForumProcess | null = null;
const base = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-db-restart-'));
  port = await freePort();
});
afterEach(async ({ task }) => {
  // what the forum said, for a failure in CI
  await reportAndKill(forum, task.result?.state === 'fail', 'forum-database-faults');
});
afterAll(async () => {
  const pid = await postmasterPid(dataDir);
  if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** The processes whose parent is `pid` (Linux's /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: the name may hold spaces and parentheses, so read after its last ')'
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === pid) children.push(Number(entry));
  }
  return children;
}

/**
 * The forum's sessions on its database now: how many, and how many are left over from before
 * `since` (a transaction left open, or a statement still running, that began before then).
 */
async function forumSessions(since = Date.now()): Promise<{ total: number; leftOver: number }> {
  const db = new pg.Client({ connectionString: (await runningEmbeddedUrl(dataDir, 'forum'))! });
  await db.connect();
  try {
    const { rows } = await db.query<{ total: number; left_over: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE state = 'idle in transaction' OR (state = 'active' AND query_start < to_timestamp($1 / 1000.0)))::int AS left_over
         FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'forum%' AND pid <> pg_backend_pid()`,
      [since],
    );
    return { total: rows[0]!.total, leftOver: rows[0]!.left_over };
  } finally {
    await db.end();
  }
}

describe("#44 the database's faults under members' writes (npm start)", () => {
  it(
    'PostgreSQL killed: commands answer 503 UNAVAILABLE at once while it is down; it is started again and every part recovers; nothing lost or doubled; verify passes; SIGTERM ends in seconds',
    { timeout: 420_000 },
    async () => {
      forum = startForumProcess({ port, dataDir, env: { LOG_LEVEL: 'warn' } });
      await forum.ready;
      const work = await startWorkload(base());
      await work.goesOn(2);

      // kill -9 of the postmaster: every session of the forum is cut at once
      const killed = (await postmasterPid(dataDir))!;
      const killedAt = Date.now();
      process.kill(killed, 'SIGKILL');
      await expect.poll(() => isAlive(killed), { timeout: 10_000 }).toBe(false);
      const readyWhileDown = await readiness(base());

      // npm start starts it again
      await expect.poll(() => postgresAnswers(dataDir), { timeout: 60_000, interval: 50 }).toBe(true);
      const backAt = Date.now();
      const restarted = (await postmasterPid(dataDir))!;
      expect(restarted).not.toBe(killed);

      // every part recovers by itself: writes are acknowledged, /readyz is ready again
      const writingAt = await work.writingAgainAfter(backAt);
      await expect.poll(() => readiness(base()), { timeout: 60_000 }).toBe(200);
      await work.goesOn(2);
      await work.stop();
      const refused = work.refused();
      const longestRefusal = Math.max(0, ...refused.map((answer) => answer.ms));
      console.info(
        `PostgreSQL killed under ${MEMBERS} members writing (${work.answers.length - refused.length} writes acknowledged): back after ${backAt - killedAt} ms; ` +
          `writes acknowledged again ${writingAt - backAt} ms after that (${writingAt - killedAt} ms without a write); ${refused.length} refusals, ` +
          `the longest answered in ${longestRefusal} ms; ${work.comments.length} comments acknowledged; reads: ${work.reads.filter((answer) => answer.status === 200).length} answered, ` +
          `${work.reads.filter((answer) => answer.status !== 200).length} refused`,
      );

      expect(readyWhileDown).toBe(503);
      expectReadsAnsweredOrUnavailable(work.reads);
      // while it was down: 503 UNAVAILABLE with Retry-After, answered at once (a hang would take 30 s)
      expect(refused.map(({ status, code, retryAfter }) => ({ status, code, retryAfter }))).toEqual(
        refused.map(() => ({ status: 503, code: ErrorCode.UNAVAILABLE, retryAfter: '1' })),
      );
      expect(longestRefusal).toBeLessThan(5_000);
      expect(writingAt - backAt).toBeLessThan(15_000);
      await expectCaughtUpAndExact(work, writingAt, dataDir);
      await stopsInSeconds(forum, 'after the restart');
      expect(isAlive(restarted)).toBe(false);
    },
  );

  it(
    'PostgreSQL stalled (SIGSTOP of all its processes for 20 s): every request is answered, 503 within the timeouts; no session leaks; after SIGCONT it recovers; nothing lost or doubled; verify passes',
    { timeout: 420_000 },
    async () => {
      forum = startForumProcess({ port, dataDir, env: { LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn' } });
      await forum.ready;
      const work = await startWorkload(base());
      await work.goesOn(2);
      const sessionsBefore = await forumSessions();

      // the postmaster and every backend stop where they are (each backend is a session of its own: signalled one by one)
      const postmaster = (await postmasterPid(dataDir))!;
      const stalledAt = Date.now();
      process.kill(postmaster, 'SIGSTOP');
      const stalled = await childrenOf(postmaster);
      for (const pid of stalled) process.kill(pid, 'SIGSTOP');
      const readyWhileStalled = await readiness(base());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, STALL_MS - (Date.now() - stalledAt))));
      for (const pid of stalled) process.kill(pid, 'SIGCONT');
      process.kill(postmaster, 'SIGCONT');
      const continuedAt = Date.now();

      const writingAt = await work.writingAgainAfter(continuedAt);
      await expect.poll(() => readiness(base()), { timeout: 60_000 }).toBe(200);
      await work.goesOn(2);
      await work.stop();
      // nothing the stall held is left: no transaction open, no statement of then still running
      await expect.poll(async () => (await forumSessions(continuedAt)).leftOver, { timeout: 15_000 }).toBe(0);
      const sessionsAfter = await forumSessions();
      const during = work.answers.filter((answer) => answer.at >= stalledAt && answer.at < continuedAt);
      const slowestAnswers = [...during, ...work.reads].sort((a, b) => b.ms - a.ms).slice(0, 5);
      const slowest = slowestAnswers[0]?.ms ?? 0;
      const statuses = [...new Set(during.map((answer) => `${answer.status} ${answer.code ?? ''}`.trim()))].sort();
      console.info(
        `PostgreSQL stalled for ${continuedAt - stalledAt} ms under ${MEMBERS} members writing: answers while stalled ${statuses.join(', ')}; the slowest answer ${slowest} ms; ` +
          `writes acknowledged again ${writingAt - continuedAt} ms after SIGCONT; the forum's sessions ${sessionsBefore.total} before, ${sessionsAfter.total} after; ` +
          `${work.comments.length} comments acknowledged`,
      );

      expect(readyWhileStalled).toBe(503);
      expect(statuses.filter((status) => !['200', '201', `503 ${ErrorCode.UNAVAILABLE}`].includes(status))).toEqual([]);
      expectReadsAnsweredOrUnavailable(work.reads);
      // answered within the timeouts (connect 5 s, statements 10 s): no request waits for the stall's end
      expect(slowestAnswers.filter((answer) => answer.ms >= STALL_MS).map(({ call, ms, status }) => ({ call, ms, status }))).toEqual([]);
      // the pools are bounded: a stall costs at most the connections they opened beside the ones it held
      expect(sessionsAfter.total).toBeLessThanOrEqual(sessionsBefore.total + 15);
      await expectCaughtUpAndExact(work, writingAt, dataDir);
      await stopsInSeconds(forum, 'after the stall');
    },
  );

  it('a stop while its PostgreSQL is gone (an external one, DATABASE_URL: no one starts it again) ends in seconds', { timeout: 240_000 }, async () => {
    const externalDir = await mkdtemp(path.join(os.tmpdir(), 'forum-db-external-'));
    const external = await startEmbeddedPostgres({ dataDir: externalDir, database: 'forum', fast: true });
    try {
      forum = startForumProcess({ port, dataDir: path.join(dataDir, 'forum'), env: { DATABASE_URL: external.url } });
      await forum.ready;
      // its operator shuts it down
      await external.stop();
      expect(await readiness(base())).toBe(503);
      await stopsInSeconds(forum, 'with its PostgreSQL gone');
    } finally {
      await external.stop();
      await rm(externalDir, { recursive: true, force: true });
    }
  });
});
