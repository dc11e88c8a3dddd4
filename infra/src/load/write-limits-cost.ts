/**
 * What the write limits cost one command: `npx tsx infra/src/load/write-limits-cost.ts [rounds] [per round]`.
 *
 * Two forums on one durable embedded PostgreSQL (fsync on), one with WRITE_LIMITS off and one with
 * them on (numbers too large to be met, so every command is counted and none refused). One member
 * sends comments one after another, in rounds that alternate between the two forums so that both
 * see the same machine; then, on the forum with limits, a member over a small limit sends more (the
 * 429s, refused from memory), and the count alone is timed. Prints each case's median and 90th percentile latency. Not a bench
 * with a verdict: figures to read, on a machine others share.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPostgresWriteLimits } from '@forum/command-service';
import { WRITE_LIMITS } from '@forum/contracts';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { percentile } from './stats.ts';

const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 200);
const never = { points: 1_000_000 };

const pgDir = await mkdtemp(path.join(os.tmpdir(), 'forum-limits-cost-pg-'));
const postgres = await startEmbeddedPostgres({ dataDir: pgDir, database: 'postgres' });
process.env.FORUM_TEST_PG_ADMIN_URL = postgres.urlFor('postgres');
process.env.FORUM_TEST_PG_URL_TEMPLATE = postgres.urlFor('__DB__');
const forums: TestForum[] = [];
try {
  const off = await startTestForum({ WRITE_LIMITS: 'off' });
  forums.push(off);
  const on = await startTestForum({ WRITE_LIMITS: JSON.stringify({ comment: { burst: never, sustained: never }, vote: { burst: { points: 5 } } }) });
  forums.push(on);

  /** A member of `forum` with a post to comment on, and a function that sends one comment and answers its latency (ms). */
  async function writer(forum: TestForum, idempotent: boolean) {
    const member = await forum.newUser('Writer');
    const created = await forum.api('/api/posts', { method: 'POST', token: member.token, json: { title: 'Latency', description: 'Comments below', tags: [] } });
    const { id: postId } = (await created.json()) as { id: string };
    let n = 0;
    return async () => {
      const headers: Record<string, string> = idempotent ? { 'Idempotency-Key': `k-${++n}` } : {};
      const started = performance.now();
      const answer = await forum.api('/api/comments', { method: 'POST', token: member.token, json: { postId, text: `Comment ${n}` }, headers });
      await answer.arrayBuffer();
      if (answer.status !== 201) throw new Error(`comment answered ${answer.status}`);
      return performance.now() - started;
    };
  }

  const cases = [
    { name: 'comment, limits off', forum: off, idempotent: false },
    { name: 'comment, limits on', forum: on, idempotent: false },
    { name: 'comment + Idempotency-Key, limits off', forum: off, idempotent: true },
    { name: 'comment + Idempotency-Key, limits on', forum: on, idempotent: true },
  ];
  const senders = await Promise.all(cases.map((c) => writer(c.forum, c.idempotent)));
  const times: number[][] = cases.map(() => []);
  for (let i = 0; i < 50; i++) for (const send of senders) await send(); // warm-up: JIT, prepared statements, caches
  for (let round = 0; round < rounds; round++) {
    for (const [i, send] of senders.entries()) for (let j = 0; j < perRound; j++) times[i]!.push(await send());
  }

  // a member over the vote limit: their further votes are refused (from memory after the first refusal)
  const voter = await on.newUser('Voter');
  const author = await on.newUser('Author');
  const posted = await on.api('/api/posts', { method: 'POST', token: author.token, json: { title: 'Votes', description: 'Up and down', tags: [] } });
  const { id: postId } = (await posted.json()) as { id: string };
  const refused: number[] = [];
  for (let i = 0; refused.length < rounds * perRound; i++) {
    const started = performance.now();
    const answer = await on.api(`/api/posts/${postId}/vote`, { method: 'PUT', token: voter.token, json: { vote: i % 2 ? 'down' : 'up' } });
    await answer.arrayBuffer();
    if (answer.status === 429) refused.push(performance.now() - started);
  }

  // the count alone: both windows' upserts, side by side, as a command takes them
  const limits = await createPostgresWriteLimits({ db: on.db, limits: WRITE_LIMITS, logger: on.logger });
  const takes: number[] = [];
  try {
    for (let i = 0; i < rounds * perRound; i++) {
      const started = performance.now();
      await limits.take('vote', `member-${i}`);
      takes.push(performance.now() - started);
    }
  } finally {
    await limits.close();
  }
  const { rows } = await on.db.raw<{ rows: { n: number }[] }>(`SELECT count(*)::int AS n FROM write_limits.counters WHERE key LIKE 'vote:%'`);

  const line = (name: string, values: number[]) =>
    `${name.padEnd(40)} ${values.length.toString().padStart(5)} × p50 ${percentile(values, 50).toFixed(2).padStart(6)} ms  p90 ${percentile(values, 90).toFixed(2).padStart(6)} ms`;
  console.log(`${rounds} rounds of ${perRound} comments per case, one member, one after another (durable PostgreSQL)`);
  for (const [i, c] of cases.entries()) console.log(line(c.name, times[i]!));
  console.log(line('vote over the limit (429)', refused));
  console.log(`${line('the count alone (take)', takes)}  (${rows[0]!.n} vote counters in PostgreSQL)`);
} finally {
  for (const forum of forums) await forum.stop();
  await postgres.stop();
  await rm(pgDir, { recursive: true, force: true });
}
