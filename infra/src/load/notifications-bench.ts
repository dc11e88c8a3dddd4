/**
 * `npm run bench -- notifications`: the fan-out of notifications (docs/notifications.md) in one forum
 * process, as `npm start` runs it.
 *   1. NOTIFY_POSTS (3) posts, each followed by NOTIFY_FOLLOWERS (10,000) members (their PostFollowed
 *      appended straight to the log: 5 of them are members who sign in, the others ids only), and one
 *      post that nobody but its author follows;
 *   2. NOTIFY_COMMENTS (20) rounds, one command after the other: a comment on the post without
 *      followers, then one on a followed post (the first on each post makes every follower a new
 *      notification, the later ones move the unread one they have); each command's latency, and for
 *      the followed post the time from its answer until each follower's notification is readable: in
 *      the read model (polled every NOTIFY_POLL_MS, 25 ms: every follower), and over HTTP for the 5 who sign in;
 *   3. the CPU each side spent during the rounds: the forum's process, its PostgreSQL (the postmaster,
 *      its backends and those it reaped) and this load generator.
 */
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import { followsStream, HEADER_MIN_POSITION, parsePositionToken, type Notifications } from '@forum/contracts';
import { createPostgresEventStore } from '@forum/eventstore';
import { createKnex } from '@forum/platform';
import { benchWriters, startBenchServer } from './server.ts';
import { ms, percentile } from './stats.ts';

const FOLLOWERS = Number(process.env.NOTIFY_FOLLOWERS ?? 10_000);
const POSTS = Number(process.env.NOTIFY_POSTS ?? 3);
const COMMENTS = Number(process.env.NOTIFY_COMMENTS ?? 20);
const SIGNED_IN = 5;
/** How often the bench asks whether the notifications are there (in the read model, and each signed-in follower over HTTP): what it adds to the forum's load. */
const POLL_MS = Number(process.env.NOTIFY_POLL_MS ?? 25);

const settle = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/** CPU seconds (user + system) of a process from /proc, its reaped children's too when asked. */
async function cpuOf(pid: number, withReaped = false): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (withReaped ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks / 100;
}

/** The PostgreSQL processes under the forum's: the postmaster and its backends. */
async function postgresCpu(forumPid: number): Promise<number> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (!stat.includes('(postgres)')) continue;
    parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  let total = 0;
  for (const [pid, parent] of parents) {
    if (parent === forumPid) total += await cpuOf(pid, true);
    else if (parents.get(parent) === forumPid) total += await cpuOf(pid);
  }
  return total;
}

const server = await startBenchServer();
const db = createKnex(server.databaseUrl, { max: 2 });
const store = await createPostgresEventStore({ connectionString: server.databaseUrl, poolSize: 2 });
try {
  const [author, commenter, ...members] = await (await benchWriters(server, 2 + SIGNED_IN, 'notify')).tokens();
  const call = async <T>(method: string, path: string, token: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const memberIds = await Promise.all(members.map(async (token) => (await call<{ _id: string }>('GET', '/api/me', token))._id));

  // ── 1. the posts and their followers ──
  const newPost = async (title: string) => (await call<{ id: string }>('POST', '/api/posts', author!, { title, description: 'Followed by many', tags: [] })).id;
  const followed: string[] = [];
  for (let n = 0; n < POSTS; n++) followed.push(await newPost(`Followed ${n}`));
  const quiet = await newPost('Followed by nobody');
  const metadata = { actorId: 'system:notifications-bench', correlationId: crypto.randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
  const followers = [...memberIds, ...Array.from({ length: FOLLOWERS - SIGNED_IN }, (_, n) => `bench-follower-${n}`)];
  const at = new Date().toISOString();
  for (let from = 0; from < followers.length; from += 1000)
    await store.append(
      followers.slice(from, from + 1000).map((userId) => ({
        streamId: followsStream(userId),
        expectedVersion: 'any' as const,
        events: followed.map((postId) => ({ type: 'PostFollowed', data: { userId, postId, at }, metadata })),
      })),
    );
  const followingCount = async () =>
    Number(
      (await db.raw<{ rows: { n: string }[] }>('SELECT count(*) AS n FROM read.post_followers WHERE following AND post_id = ANY(?)', [followed])).rows[0]!.n,
    );
  while ((await followingCount()) < POSTS * (FOLLOWERS + 1)) await settle(100);

  // ── 2. the rounds ──
  const comment = async (postId: string, text: string) => {
    const started = performance.now();
    const { position } = await call<{ id: string; position: string }>('POST', '/api/comments', commenter!, { postId, text });
    return { answered: performance.now(), latency: performance.now() - started, token: position, position: parsePositionToken(position)!.globalPosition };
  };
  const quietLatencies: number[] = [];
  const fanOutLatencies: number[] = [];
  const readable: { first: number[]; later: number[] } = { first: [], later: [] };
  const overHttp: number[] = [];
  const cpuBefore = { forum: await cpuOf(server.pid), postgres: await postgresCpu(server.pid), bench: process.cpuUsage() };
  const roundsStarted = performance.now();
  for (let n = 0; n < COMMENTS; n++) {
    const calm = await comment(quiet, `Quiet ${n}`);
    quietLatencies.push(calm.latency);
    // both comments are sent with the forum at rest: the quiet one applied, as the fan-out was before it
    await fetch(`${server.base}/api/posts/${quiet}`, { headers: { [HEADER_MIN_POSITION]: calm.token } });
    const { answered, latency, position } = await comment(followed[n % POSTS]!, `Round ${n}`);
    fanOutLatencies.push(latency);
    // every follower's row made or moved by this comment, polled in the read model; and the signed-in ones over HTTP
    const http = Promise.all(
      members.map(async (token) => {
        for (;;) {
          const page = await call<Notifications>('GET', '/api/me/notifications?unread=true', token);
          const mine = page.notifications.find((item) => item.kind === 'followed-post' && item.postId === followed[n % POSTS]);
          if (mine?.kind === 'followed-post' && mine.count === Math.floor(n / POSTS) + 1) return performance.now() - answered;
          await settle(POLL_MS);
        }
      }),
    );
    const times = n < POSTS ? readable.first : readable.later;
    let seen = 0;
    while (seen < FOLLOWERS) {
      const { rows } = await db.raw<{ rows: { n: string }[] }>("SELECT count(*) AS n FROM read.notifications WHERE position = ? AND kind = 'followed-post'", [
        String(position),
      ]);
      const now = performance.now() - answered;
      const count = Number(rows[0]!.n);
      for (; seen < count; seen++) times.push(now);
      if (seen < FOLLOWERS) await settle(POLL_MS);
    }
    overHttp.push(...(await http));
  }
  const roundsSeconds = (performance.now() - roundsStarted) / 1000;
  const bench = process.cpuUsage(cpuBefore.bench);
  const cpu = {
    forum: (await cpuOf(server.pid)) - cpuBefore.forum,
    postgres: (await postgresCpu(server.pid)) - cpuBefore.postgres,
    bench: (bench.user + bench.system) / 1e6,
  };

  const row = (values: number[]) => `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(percentile(values, 100))}`;
  const rows: [string, string][] = [
    ['followers of each followed post', FOLLOWERS.toLocaleString('en')],
    ['rounds (a comment on each kind of post)', String(COMMENTS)],
    ['comment latency, post without followers', row(quietLatencies)],
    ['comment latency, post with followers', row(fanOutLatencies)],
    [`readable in the read model, first comment (${POSTS} × ${FOLLOWERS.toLocaleString('en')} new rows)`, row(readable.first)],
    [`readable in the read model, later comments (${COMMENTS - POSTS} × rows moved)`, row(readable.later)],
    [`readable over HTTP (${SIGNED_IN} followers who sign in, every round)`, row(overHttp)],
    [
      'CPU during the rounds: forum / PostgreSQL / load generator',
      `${cpu.forum.toFixed(1)} s / ${cpu.postgres.toFixed(1)} s / ${cpu.bench.toFixed(1)} s of ${roundsSeconds.toFixed(1)} s`,
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(
    `\nforum bench: notifications (${os.cpus().length} cores, Node ${process.version}, PostgreSQL with fsync on)\n${rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join('\n')}\n`,
  );
} finally {
  await store.close();
  await db.destroy();
  await server.stop();
}
