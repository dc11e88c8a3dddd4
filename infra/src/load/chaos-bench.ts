/**
 * `npm run bench -- chaos`: the replicated layout (`npm run start:replicated`: two command services,
 * two query services and two projection runners, on an embedded PostgreSQL) for CHAOS_SECONDS (300)
 * while CHAOS_MEMBERS (12) members write through the gateway as forum-web does (an Idempotency-Key on
 * every command, sent again with it after a 502, 503 or 504; write limits on; a command about every
 * second each, most of them votes, every eighth a comment) and CHAOS_READERS (4) visitors read.
 * Meanwhile a loop kills (SIGKILL), every CHAOS_KILL_MIN_S to CHAOS_KILL_MAX_S seconds (5–15), at
 * random a command service, a query service or the runner that owns the projections, once the last
 * one killed is back; at half time it kills PostgreSQL's postmaster instead (the forum starts it
 * again), once. At the end: every process up, every acknowledged post and comment in the log exactly
 * once, every acknowledged vote's key recorded, every read model equal to a replay of the log.
 * It prints the kills, the answers the clients saw by status, the longest time without an
 * acknowledged write, and the CPU each part spent. It exits 1 when a check fails.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { positionToken } from '@forum/contracts';
import { createLogger } from '@forum/platform';
import { waitFor } from '@forum/platform/testing';
import { allProjections } from '@forum/projections';
import { verifyProjection } from '@forum/projections/verify';
import { ReplicatedConfig } from '../replicated/config.ts';
import { startReplicatedForum, type ReplicatedForum } from '../replicated/forum.ts';
import type { ServiceProcess } from '../replicated/service-process.ts';
import { isAlive, postmasterPid } from '../testing/forum-process.ts';
import { appliedByEveryProjection, CommandLoad, ownsProjections, workerStates } from '../testing/replicated.ts';
import { CpuSplit } from './cpu-split.ts';
import { benchWriters, signIn } from './server.ts';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 300);
const MEMBERS = Number(process.env.CHAOS_MEMBERS ?? 12);
const READERS = Number(process.env.CHAOS_READERS ?? 4);
const KILL_MIN_S = Number(process.env.CHAOS_KILL_MIN_S ?? 5);
const KILL_MAX_S = Number(process.env.CHAOS_KILL_MAX_S ?? 15);
/** A member's pause after each answer, and every how many commands one is a comment: under the write limits (contracts' WRITE_LIMITS). */
const MEMBER_PAUSE_MS = 1000;
const COMMENT_EVERY = 8;
/** A visitor's pause after each read. */
const READER_PAUSE_MS = 250;
/** Access tokens live 5 minutes: the members sign in again this often, as keycloak-js renews them. */
const RENEW_TOKENS_MS = 120_000;
/** How long a killed part may take to be back before the bench gives up on it. */
const BACK_WITHIN_MS = 180_000;
const HOME = '/api/posts?page=1&sort=newest';

for (const [name, value] of Object.entries({ SECONDS, MEMBERS, READERS, KILL_MIN_S, KILL_MAX_S })) {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`CHAOS_${name} must be a positive number`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** A member's id: the subject of their access token. */
const subjectOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;

interface Kill {
  readonly at: number;
  readonly target: string;
  backAfterMs: number | null;
}

/** The answers the clients saw, by what was asked (writes, reads) and status (0: no answer at all). */
class Answers {
  readonly byStatus = new Map<string, Map<number, number>>();
  add(what: string, status: number) {
    const statuses = this.byStatus.get(what) ?? new Map<number, number>();
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    this.byStatus.set(what, statuses);
  }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-chaos-bench-'));
// write limits on (the default), as members meet them
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error', LOG_FORMAT: 'json', PAYMENT_DEMO_DELAY_MS: '0' };
const config = ReplicatedConfig.parse({ ...env, PORT: '0', HOST: '127.0.0.1', REPLICAS: '2' });
// the embedded PostgreSQL and realm, whatever this shell has set
const forum = await startReplicatedForum(config, {
  env: { ...process.env, ...env, OIDC_ISSUER: '', DATABASE_URL: '' },
  output: 'capture',
  logger: createLogger('chaos-bench', 'silent'),
}).catch(async (error: unknown) => {
  await rm(dataDir, { recursive: true, force: true });
  throw error;
});
let failed: boolean;
try {
  const gateway = `http://127.0.0.1:${forum.port}`;
  const writers = await benchWriters({ base: gateway, token: (email, password) => signIn(gateway, email, password) }, MEMBERS, 'chaos-member');
  const members = (await writers.tokens()).map((token) => ({ id: subjectOf(token), token }));
  const renewing = setInterval(() => {
    void writers.tokens().then(
      (tokens) => tokens.forEach((token, i) => typeof token === 'string' && token && (members[i]!.token = token)),
      // the realm's database may be down just now: the tokens in hand last until the next try
      () => {},
    );
  }, RENEW_TOKENS_MS);

  const answers = new Answers();
  const load = new CommandLoad(gateway, members, {
    pauseMs: MEMBER_PAUSE_MS,
    commentEvery: COMMENT_EVERY,
    onAnswer: ({ status }) => answers.add('writes', status),
  });
  await load.start(2);
  const posts = load.acknowledged.filter((command) => command.kind === 'post').map((command) => command.body.id!);

  const cpu = new CpuSplit(process.pid, ({ pid, comm, cmdline }) => {
    if (comm === 'postgres') return 'PostgreSQL';
    const service = /infra\/src\/services\/([\w-]+)\.ts/.exec(cmdline)?.[1];
    if (service) return `${service} processes`;
    return pid === process.pid ? 'gateway, realm and load generator (this process)' : comm;
  });
  await cpu.start();
  const startedAt = Date.now();
  const endsAt = startedAt + SECONDS * 1000;

  let reading = true;
  const readers = Array.from({ length: READERS }, async (_, n) => {
    for (let turn = n; reading; turn++) {
      const post = posts[turn % posts.length];
      const url = turn % 3 === 0 ? HOME : turn % 3 === 1 ? `/api/posts/${post}` : `/api/posts/${post}/comments`;
      const answer = await fetch(`${gateway}${url}`).catch(() => null);
      answers.add('reads', answer?.status ?? 0);
      await answer?.body?.cancel();
      await sleep(READER_PAUSE_MS);
    }
  });

  const kills = await chaos(forum, endsAt);
  reading = false;
  await Promise.all([load.stop(), ...readers]);
  clearInterval(renewing);
  const stoppedAt = Date.now();
  const spent = await cpu.stop();

  // ── afterwards: every process up, caught up, and nothing lost or doubled ──
  const checks: [string, boolean][] = [];
  const upAgain = await waitFor(everyPartReady(forum), Boolean, BACK_WITHIN_MS, 500).then(
    () => true,
    () => false,
  );
  checks.push([`every process up: ${Object.values(forum.services).flat().length} services and the gateway ready`, upAgain]);
  const head = positionToken(await forum.store.head());
  await waitFor(() => appliedByEveryProjection(forum.db, head), Boolean, BACK_WITHIN_MS, 200);

  const acknowledged = load.acknowledged;
  const created = acknowledged.filter((command) => command.kind !== 'vote');
  const streams = created.map((command) => `${command.kind}-${command.body.id}`);
  const count = async (sql: string, values: unknown[]) => Number((await forum.db.raw<{ rows: { n: string }[] }>(sql, values as never)).rows[0]!.n);
  const inLog = await count(`SELECT count(*) AS n FROM eventstore.events WHERE stream_id = ANY(?) AND type IN ('PostCreated', 'CommentAdded')`, [streams]);
  checks.push([
    `every acknowledged post and comment in the log exactly once (${streams.length})`,
    inLog === streams.length && new Set(streams).size === streams.length,
  ]);
  // a vote that changed nothing (the member's vote already) appends nothing, and answers without a position
  const votes = acknowledged.filter((command) => command.kind === 'vote' && command.body.position).map((command) => command.key);
  // the service keeps a key scoped to its caller and call (`<member>:PUT /api/posts/…/vote:<key>`)
  const votesKept = await count(
    `SELECT count(*) AS n FROM eventstore.idempotency_keys kept JOIN unnest(?::text[]) AS sent(key) ON kept.key LIKE '%:' || sent.key`,
    [votes],
  );
  checks.push([`every acknowledged vote that changed a vote has its Idempotency-Key recorded, once (${votes.length})`, votesKept === votes.length]);
  const written = await count(`SELECT count(*) AS n FROM eventstore.events WHERE type IN ('PostCreated', 'CommentAdded') AND metadata->>'actorId' = ANY(?)`, [
    members.map((member) => member.id),
  ]);
  const unacknowledged = written - inLog;

  const verified = [];
  for (const projection of allProjections) verified.push(await verifyProjection(forum.db, forum.store, projection));
  const differ = verified.filter((result) => !result.ok).map((result) => `${result.name}: ${result.problem ?? 'differs'}`);
  checks.push([
    `every read model equal to a replay of the log (${verified.length} projections)${differ.length ? `: ${differ.join('; ')}` : ''}`,
    differ.length === 0,
  ]);

  // ── the figures ──
  const gap = longestGap(
    acknowledged.map((command) => command.answeredAt),
    startedAt,
    stoppedAt,
  );
  const out: string[] = [];
  out.push(
    `chaos: ${SECONDS} s through start:replicated's gateway (two of each service, embedded PostgreSQL); ${MEMBERS} members writing (limits on, Idempotency-Key), ${READERS} visitors reading`,
  );
  out.push('', `kills (${kills.length}):`);
  for (const kill of kills)
    out.push(
      `  +${seconds(kill.at - startedAt).padStart(8)}  ${kill.target.padEnd(34)} back after ${kill.backAfterMs === null ? 'NOT BACK' : seconds(kill.backAfterMs)}`,
    );
  out.push('', 'answers the clients saw, by status (every attempt; 0: no answer):');
  for (const [what, statuses] of answers.byStatus) {
    out.push(
      `  ${what.padEnd(7)} ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}: ${n}`)
        .join('  ')}`,
    );
  }
  const sentAgain = load.sent.filter((command) => command.attempts > 1).length;
  const notAcknowledged = load.sent.filter((command) => command.status < 200 || command.status >= 300);
  out.push(
    '',
    `commands: ${load.sent.length} sent, ${acknowledged.length} acknowledged, ${sentAgain} of them sent again with their key, ${notAcknowledged.length} not acknowledged (${summary(notAcknowledged.map((command) => command.status))})`,
  );
  out.push(`writes in the log that were never acknowledged (their client gave up after a cut-off answer): ${unacknowledged}`);
  out.push(
    `longest time without an acknowledged write: ${seconds(gap.ms)} (from +${seconds(gap.from - startedAt)}; kills then: ${
      kills
        .filter((kill) => kill.at <= gap.to && kill.at + (kill.backAfterMs ?? Infinity) >= gap.from)
        .map((kill) => kill.target)
        .join(', ') || 'none'
    })`,
  );
  out.push('', 'CPU seconds while the chaos ran:');
  for (const [group, cpuSeconds] of [...spent].sort(([, a], [, b]) => b - a)) out.push(`  ${group.padEnd(52)} ${cpuSeconds.toFixed(1)}`);
  out.push('', 'checks:');
  for (const [check, ok] of checks) out.push(`  ${ok ? 'ok  ' : 'FAIL'} ${check}`);
  process.stdout.write(out.join('\n') + '\n');
  failed = checks.some(([, ok]) => !ok) || kills.some((kill) => kill.backAfterMs === null);
} finally {
  await forum.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** The kill loop until `endsAt`: one part at a time, each back before the next is killed; PostgreSQL once, at half time. */
async function chaos(forum: ReplicatedForum, endsAt: number): Promise<Kill[]> {
  const kills: Kill[] = [];
  const halfTime = endsAt - (SECONDS * 1000) / 2;
  let postgresKilled = false;
  for (;;) {
    await sleep((KILL_MIN_S + Math.random() * (KILL_MAX_S - KILL_MIN_S)) * 1000);
    if (Date.now() >= endsAt) return kills;
    let kill: Kill;
    if (!postgresKilled && Date.now() >= halfTime) {
      postgresKilled = true;
      const pid = await postmasterPid(dataDir);
      if (pid === null) throw new Error('no postmaster.pid in the data folder');
      kill = { at: Date.now(), target: 'PostgreSQL (kill -9 of its postmaster)', backAfterMs: null };
      process.kill(pid, 'SIGKILL');
      // started again: another postmaster, running
      await waitFor(
        () => postmasterPid(dataDir),
        (again) => again !== null && again !== pid && isAlive(again),
        BACK_WITHIN_MS,
        50,
      ).catch(() => {});
    } else {
      const victim = await pickVictim(forum);
      const before = victim.process.pid;
      kill = { at: Date.now(), target: `${victim.process.name}${victim.owner ? ' (owns the projections)' : ''}`, backAfterMs: null };
      victim.process.kill('SIGKILL');
      // started again: another process, answering
      await waitFor(
        () => victim.process.pid,
        (pid) => pid !== undefined && pid !== before,
        BACK_WITHIN_MS,
        100,
      ).catch(() => {});
    }
    kills.push(kill);
    const back = await waitFor(everyPartReady(forum), Boolean, BACK_WITHIN_MS, 100).then(
      () => true,
      () => false,
    );
    if (!back) return kills;
    kill.backAfterMs = Date.now() - kill.at;
  }
}

/** A command service, a query service or the runner that owns the projections, at random. */
async function pickVictim(forum: ReplicatedForum): Promise<{ process: ServiceProcess; owner: boolean }> {
  const runners = forum.services.projections;
  const states = await Promise.all(runners.map((runner) => workerStates(runner)));
  const owner = runners[states.findIndex(ownsProjections)];
  const candidates = [...forum.services['command-service'], ...forum.services['query-service'], ...(owner ? [owner] : [])];
  const service = candidates[Math.floor(Math.random() * candidates.length)]!;
  return { process: service, owner: service === owner };
}

/** Whether every service answers its /readyz, the gateway's too, and a runner owns the projections. */
function everyPartReady(forum: ReplicatedForum) {
  return async () => {
    const services = Object.values(forum.services).flat();
    const [ready, gatewayReady, owned] = await Promise.all([
      Promise.all(services.map((service) => service.ready())),
      fetch(`http://127.0.0.1:${forum.port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
        (answer) => answer.ok,
        () => false,
      ),
      Promise.all(forum.services.projections.map((runner) => workerStates(runner))).then((states) => states.some(ownsProjections)),
    ]);
    return ready.every(Boolean) && gatewayReady && owned;
  };
}

/** The longest stretch between two of the times in `at` that lie from `from` to `to`, or from the last of them to `to`. */
function longestGap(at: readonly number[], from: number, to: number): { ms: number; from: number; to: number } {
  const times = [...at.filter((time) => time >= from && time <= to).sort((a, b) => a - b), to];
  let gap = { ms: 0, from, to: from };
  for (let i = 1; i < times.length; i++) if (times[i]! - times[i - 1]! > gap.ms) gap = { ms: times[i]! - times[i - 1]!, from: times[i - 1]!, to: times[i]! };
  return gap;
}

/** Statuses and how many of each, e.g. `429: 3, 503: 1`. */
function summary(statuses: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return (
    [...counts]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ') || 'none'
  );
}
