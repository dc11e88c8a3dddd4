import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareLogPositions, ErrorCode, HEADER_IDEMPOTENCY_KEY, HEADER_MIN_POSITION, parsePositionToken } from '@forum/contracts';
import { runningEmbeddedUrl } from '@forum/platform/embedded-postgres';
import pg from 'pg';
import { expect } from 'vitest';
import { exitOf, type ForumProcess } from './forum-process.ts';
import { openStream } from './sse-client.ts';

/**
 * Members writing to `npm start`'s forum (startForumProcess) while its database fails, and the
 * checks after the fault: nothing lost or doubled, every part caught up. The tests of the
 * database's faults (infra/src/embedded/database-*.int.test.ts) share them.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const MEMBERS = 6;
const ROUND_MS = 5_500;
const DEMO_PASSWORD = 'Forum#2026';
const PASSWORD = 'Secret#2026';

export interface Answer {
  /** The call, as 'METHOD /path'. */
  readonly call: string;
  readonly at: number;
  readonly ms: number;
  readonly status: number | 'no answer';
  readonly code?: string;
  readonly retryAfter?: string | null;
}

/** One call as a careful client makes it: answered, or 'no answer' after 30 s (a hang). */
async function call(url: string, init: RequestInit): Promise<Answer & { body?: { id?: string; position?: string } & { error?: { code: string } } }> {
  const at = Date.now();
  const what = `${init.method ?? 'GET'} ${new URL(url).pathname}`;
  try {
    const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = (await answer.json().catch(() => ({}))) as { id?: string; position?: string; error?: { code: string } };
    return { call: what, at, ms: Date.now() - at, status: answer.status, code: body.error?.code, retryAfter: answer.headers.get('retry-after'), body };
  } catch {
    return { call: what, at, ms: Date.now() - at, status: 'no answer' };
  }
}

/** /readyz's status. */
export const readiness = async (base: string) => (await call(`${base}/readyz`, {})).status;

/** Whether the PostgreSQL a forum runs in `dataDir` answers a query. */
export async function postgresAnswers(dataDir: string): Promise<boolean> {
  const url = await runningEmbeddedUrl(dataDir, 'forum');
  if (!url) return false;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** `npm run forumctl -- ...args` on the forum's data in `dataDir`: its exit code and output. */
const forumctl = (dataDir: string, ...args: string[]) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/src/ops/main.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });

/** An acknowledged comment: its id, its event's position, and when the answer came. */
interface Comment {
  readonly id: string;
  readonly position: string;
  readonly at: number;
}

async function tokenOf(base: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const answer = await fetch(`${base}/realms/forum/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'forum-cli', username: email, password, scope: 'openid' }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** A command sent as a careful client sends it: with an Idempotency-Key, sent again with the same key after a 503 or no answer, until acknowledged. */
async function acknowledged(
  base: string,
  token: string,
  method: string,
  path: string,
  body: unknown,
  answers: Answer[],
): Promise<{ id?: string; position?: string }> {
  const key = randomUUID();
  for (;;) {
    const answer = await call(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', [HEADER_IDEMPOTENCY_KEY]: key },
      body: JSON.stringify(body),
    });
    answers.push(answer);
    if (answer.status === 200 || answer.status === 201) return answer.body!;
    if (answer.status !== 503 && answer.status !== 'no answer') throw new Error(`${method} ${path} answered ${answer.status} ${answer.code ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A member at work until `until()` is over: a comment and four votes every ROUND_MS, within the
 * write limits (12 comments and 60 votes a minute).
 */
async function member(base: string, token: string, postId: string, until: () => boolean, answers: Answer[], comments: Comment[]) {
  for (let round = 0; !until(); round++) {
    const started = Date.now();
    const { id, position } = await acknowledged(base, token, 'POST', '/api/comments', { postId, text: `Still here (round ${round})` }, answers);
    comments.push({ id: id!, position: position!, at: Date.now() });
    for (let vote = 0; vote < 4 && !until(); vote++) {
      await acknowledged(base, token, 'PUT', `/api/posts/${postId}/vote`, { vote: vote % 2 === 0 ? 'up' : 'down' }, answers);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ROUND_MS - (Date.now() - started))));
  }
}

/** MEMBERS members of the realm (the admin creates them through its admin API), each with a token. */
async function newMembers(base: string, adminToken: string): Promise<string[]> {
  return Promise.all(
    Array.from({ length: MEMBERS }, async (_, i) => {
      const email = `member-${i}-${randomUUID().slice(0, 8)}@forum.test`;
      const created = await fetch(`${base}/admin/realms/forum/users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email,
          firstName: `Member ${i}`,
          enabled: true,
          emailVerified: true,
          credentials: [{ type: 'password', value: PASSWORD, temporary: false }],
        }),
      });
      expect(created.status).toBe(201);
      return tokenOf(base, email, PASSWORD);
    }),
  );
}

/** A visitor reading the home page and the post in a loop until `until()` is over. */
async function reader(base: string, postId: string, until: () => boolean, answers: Answer[]) {
  while (!until()) {
    answers.push(await call(`${base}/api/posts?page=1`, {}));
    answers.push(await call(`${base}/api/posts/${postId}`, {}));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** MEMBERS new members writing and a visitor reading, on a new post whose change stream stays open (as a reader's page holds it). */
export async function startWorkload(base: string) {
  const tokens = await newMembers(base, await tokenOf(base, 'admin@forum.local'));
  const created = await call(`${base}/api/posts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await tokenOf(base, 'alice@forum.local')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'The database goes away', description: 'Members keep commenting.', tags: [] }),
  });
  expect(created.status).toBe(201);
  const postId = created.body!.id!;
  // the visitor reads a post they found, one the read side has: not its id before the projections applied it
  await expect
    .poll(async () => (await call(`${base}/api/posts/${postId}`, { headers: { [HEADER_MIN_POSITION]: created.body!.position! } })).status, { timeout: 30_000 })
    .toBe(200);
  const stream = await openStream(base, `/api/stream?topics=post:${postId}`);
  expect(stream.status).toBe(200);
  const answers: Answer[] = [];
  const comments: Comment[] = [];
  const reads: Answer[] = [];
  let done = false;
  const running = [...tokens.map((token) => member(base, token, postId, () => done, answers, comments)), reader(base, postId, () => done, reads)];
  const acknowledgedSince = (at: number) => answers.filter((answer) => (answer.status === 200 || answer.status === 201) && answer.at >= at);
  return {
    base,
    postId,
    answers,
    comments,
    reads,
    stream,
    acknowledgedSince,
    /** Waits until `rounds` more rounds of comments are acknowledged. */
    async goesOn(rounds: number) {
      const before = comments.length;
      await expect.poll(() => comments.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(before + rounds * MEMBERS);
    },
    /** When writes were acknowledged again after `at`: the end of the first acknowledged answer sent then. */
    async writingAgainAfter(at: number) {
      await expect.poll(() => acknowledgedSince(at).length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
      return Math.min(...acknowledgedSince(at).map((answer) => answer.at + answer.ms));
    },
    async stop() {
      done = true;
      await Promise.all(running);
    },
    refused: () => answers.filter((answer) => answer.status !== 200 && answer.status !== 201),
  };
}
export type Workload = Awaited<ReturnType<typeof startWorkload>>;

/**
 * After a fault, everything caught up by itself and nothing was lost or doubled: the last comment is
 * read (read-your-writes: the projections are running), every comment acknowledged since `recoveredAt`
 * reached the change stream, every acknowledged comment is in the log exactly once and nothing else
 * was written, no projection halted, and `forumctl verify` finds the read models equal to a replay.
 */
export async function expectCaughtUpAndExact(work: Workload, recoveredAt: number, dataDir: string) {
  const { base, postId, comments, stream } = work;
  const last = comments.at(-1)!;
  const read = await call(`${base}/api/posts/${postId}/comments`, { headers: { [HEADER_MIN_POSITION]: last.position } });
  expect(read.status).toBe(200);
  expect((read.body as unknown as { totalCount: number }).totalCount).toBe(comments.length);
  // each reaches the open page: as its own message, or in what the page reads again when the stream says
  // 'refetch' at or after its position (the stream's follower started again from the log's head after it);
  // next() fails after 5 s, listing what came
  const reached = async (comment: Comment) => {
    const at = parsePositionToken(comment.position)!;
    await stream.next(
      (message) =>
        message.data.commentId === comment.id ||
        (message.event === 'refetch' && compareLogPositions(parsePositionToken(String(message.data.position))!, at) >= 0),
      { timeoutMs: 5_000 },
    );
  };
  await Promise.all(comments.filter((comment) => comment.at >= recoveredAt).map(reached));
  stream.close();

  const db = new pg.Client({ connectionString: (await runningEmbeddedUrl(dataDir, 'forum'))! });
  await db.connect();
  try {
    const { rows } = await db.query<{ comment_id: string; n: number }>(
      `SELECT data->>'commentId' AS comment_id, count(*)::int AS n FROM eventstore.events WHERE type = 'CommentAdded' AND data->>'postId' = $1 GROUP BY 1`,
      [postId],
    );
    expect(rows.filter((row) => row.n !== 1)).toEqual([]);
    expect(rows.map((row) => row.comment_id).sort()).toEqual(comments.map((comment) => comment.id).sort());
    // no projection stopped on the fault as if an event could not be applied
    const halted = await db.query<{ name: string; error: string }>(
      `SELECT name, error FROM projections.checkpoints WHERE state <> 'retired' AND error IS NOT NULL`,
    );
    expect(halted.rows).toEqual([]);
  } finally {
    await db.end();
  }

  const verified = await forumctl(dataDir, 'verify');
  expect(verified.output).not.toMatch(/differ|mismatch/i);
  expect(verified.code).toBe(0);
}

/** Reads answer from memory where they can, else 503 UNAVAILABLE as the commands; never anything else. */
export function expectReadsAnsweredOrUnavailable(reads: readonly Answer[]) {
  const other = reads.filter((answer) => answer.status !== 200 && !(answer.status === 503 && answer.code === ErrorCode.UNAVAILABLE));
  expect(other.map(({ call, status, code, at, ms }) => ({ call, status, code, at: new Date(at).toISOString(), ms }))).toEqual([]);
}

/** SIGTERM stops the forum, PostgreSQL included, in seconds; how long it took. */
export async function stopsInSeconds(forum: ForumProcess, what: string) {
  const stopAt = Date.now();
  forum.child.kill('SIGTERM');
  expect(await exitOf(forum.child)).toEqual({ code: 0, signal: null });
  console.info(`SIGTERM ${what}: stopped in ${Date.now() - stopAt} ms`);
  expect(Date.now() - stopAt).toBeLessThan(15_000);
}

/**
 * After a failed test: the forum's unexpected errors and the end of its output on the console, all
 * of its output in a file named after `label`. Then it is killed if it still runs.
 */
export async function reportAndKill(forum: ForumProcess | null, failed: boolean, label: string) {
  if (failed && forum) {
    const unexpected = forum
      .output()
      .split('\n')
      .filter((line) => line.includes('"unhandled error"'));
    const kept = path.join(os.tmpdir(), `${label}-${Date.now()}.log`);
    await writeFile(kept, forum.output());
    console.error(
      `the forum's unexpected errors:\n${unexpected.join('\n').slice(0, 6000)}\nthe end of its output (all of it in ${kept}):\n${forum.output().slice(-3000)}`,
    );
  }
  if (forum && forum.child.exitCode === null && forum.child.signalCode === null) {
    forum.child.kill('SIGKILL');
    await exitOf(forum.child);
  }
}
