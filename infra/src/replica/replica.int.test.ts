import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HEADER_MIN_POSITION, HEADER_READ_BEHIND } from '@forum/contracts';
import { createKnex, replicasOf, standbyStatus, type Knex } from '@forum/platform';
import { anyNumber, objectContaining } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RunningQueryService } from '../services/query-service-app.ts';
import { startTestForum, type NewUser, type TestForum } from '../testing/forum.ts';
import { startQueryServer } from '../testing/query-server.ts';
import { openStream, type SseMessage } from '../testing/sse-client.ts';
import { runForumctl } from '../ops/forumctl.ts';
import { startPrimaryAndReplica, type PrimaryAndReplica } from './replica.ts';

/**
 * Reads from a hot standby (docs/replica.md): a primary and its streaming replica, made here by a
 * base backup; the forum on the primary (commands, the log, the projections) reading its pages
 * from the replica (READ_DATABASE_URL), and query services of their own on the replica (the
 * distributed layout) and on the primary. A read that passes back a command's position is never
 * older than the command, whatever the replica's replay does: it waits, or says it is behind.
 */
let dataDir: string;
let pair: PrimaryAndReplica;
/** The one-process forum: writes on the primary, reads on the replica. */
let forum: TestForum;
/** Reads on the replica, waiting up to 25 s for X-Min-Position (longer than any step below takes while replay is paused). */
let onReplica: RunningQueryService;
/** Reads on the primary. */
let onPrimary: RunningQueryService;
/** Reads on the replica, waiting at most 300 ms, and not ready past 200 ms of replica lag. */
let impatient: RunningQueryService;
let replicaDb: Knex;
let primaryDb: Knex;
let author: NewUser;
let voter: NewUser;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-replica-'));
  pair = await startPrimaryAndReplica({ dataDir, database: 'forum', fast: true, sharedBuffers: '128MB' });
  forum = await startTestForum({ DATABASE_URL: pair.primary.url, READ_DATABASE_URL: pair.replica.url });
  onReplica = await startQueryServer(forum, { READ_DATABASE_URL: pair.replica.url, MIN_POSITION_WAIT_MS: '25000' });
  onPrimary = await startQueryServer(forum);
  impatient = await startQueryServer(forum, { READ_DATABASE_URL: pair.replica.url, MIN_POSITION_WAIT_MS: '300', READY_MAX_REPLICA_LAG_MS: '200' });
  replicaDb = createKnex(pair.replica.url, { max: 2 });
  primaryDb = createKnex(pair.primary.url, { max: 2 });
  [author, voter] = [await forum.newUser('Replica Author'), await forum.newUser('Replica Voter')];
  const admin = await forum.demoAdmin();
  for (const user of [author, voter]) await forum.register(user.token);
  // a member: the free post limit does not stand in the way of the posts below
  const { position } = await forum.call<{ position: string }>('PATCH', `/api/users/membership/${author.email}`, { token: admin.token });
  await read(onReplica, '/api/me', { token: author.token, position });
}, 120_000);

afterAll(async () => {
  // replay may have been left paused by a failed test: the servers stop either way
  await replicaDb?.raw('SELECT pg_wal_replay_resume()').catch(() => {});
  await impatient?.stop();
  await onReplica?.stop();
  await onPrimary?.stop();
  await replicaDb?.destroy();
  await primaryDb?.destroy();
  await forum?.stop();
  await pair?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** The forum's gateway, as a place to read from. */
const forumReads = {
  get url() {
    return forum.url.replace('localhost', '127.0.0.1');
  },
};

/** A read through a query service (or the forum), with X-Min-Position when `position` is given. */
async function read(service: { readonly url: string }, url: string, { token, position }: { token?: string; position?: string } = {}) {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (position) headers[HEADER_MIN_POSITION] = position;
  const response = await fetch(`${service.url}${url}`, { headers });
  return { status: response.status, behind: response.headers.get(HEADER_READ_BEHIND), body: (await response.json()) as Record<string, unknown> };
}

const newPost = (title: string) =>
  forum.call<{ id: string; position: string }>('POST', '/api/posts', {
    token: author.token,
    body: { title, description: 'Read from the replica', tags: [] },
    expect: 201,
  });
const vote = (postId: string, choice: 'up' | 'down' | 'none') =>
  forum.call<{ position: string }>('PUT', `/api/posts/${postId}/vote`, { token: voter.token, body: { vote: choice } });

/** Pauses the replica's replay and resolves once it has paused (a record arrived after the request): what the primary commits now waits. */
async function pauseReplay(): Promise<void> {
  await replicaDb.raw('SELECT pg_wal_replay_pause()');
  onTestFinished(() => replicaDb.raw('SELECT pg_wal_replay_resume()').then(() => {}));
}
const replayState = async () => (await replicaDb.raw<{ rows: { state: string }[] }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0]!.state;

/** forumctl status against `url`. */
async function ctl(url: string) {
  let out = '';
  let err = '';
  const code = await runForumctl(['status'], url, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** Polls `condition` every 20 ms until it holds; fails after `timeoutMs`, naming `what`. */
async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the replica', () => {
  it('is a hot standby streaming from the primary, which lists it', async () => {
    const status = await standbyStatus(replicaDb);
    expect(status).toMatchObject({ standby: true, streaming: true, replayPaused: false });
    expect((await standbyStatus(primaryDb)).standby).toBe(false);
    const replicas = await replicasOf(primaryDb);
    expect(replicas).toEqual([objectContaining({ name: 'forum_replica', state: 'streaming' })]);
  });

  it('refuses writes', async () => {
    await expect(replicaDb.raw('CREATE TABLE refused (x int)')).rejects.toThrow(/read-only transaction/);
  });
});

describe('its lag', () => {
  it('is in /readyz of the forum and of a query service reading from it, and in forumctl status on the primary and on the replica', async () => {
    for (const base of [forumReads.url, onReplica.url]) {
      const ready = (await (await fetch(`${base}/readyz`)).json()) as { status: string; checks: { replica: { ok: boolean; detail: Record<string, unknown> } } };
      expect(ready.status, base).toBe('ready');
      expect(ready.checks.replica, base).toMatchObject({
        ok: true,
        detail: { standby: true, streaming: true, replayPaused: false, checkpointsBehind: anyNumber },
      });
    }
    expect(((await (await fetch(`${onPrimary.url}/readyz`)).json()) as { checks: object }).checks).not.toHaveProperty('replica');

    const onThePrimary = await ctl(pair.primary.url);
    expect(onThePrimary.code, onThePrimary.err).toBe(0);
    expect(onThePrimary.out).toMatch(/^replica +address +state +behind \(bytes\) +replay lag$/m);
    expect(onThePrimary.out).toMatch(/^forum_replica +127\.0\.0\.1 +streaming +\d+ +\d+ ms$/m);
    const onTheReplica = await ctl(pair.replica.url);
    expect(onTheReplica.code, onTheReplica.err).toBe(0);
    expect(onTheReplica.out).toMatch(/^posts +\d+ +\d+ +running /m);
    expect(onTheReplica.out).toMatch(
      /This database is a standby, streaming from its primary: reads may be \d+ ms old, \d+ bytes received and not replayed yet\./,
    );
  });
});

describe('read-your-writes through a query service on the replica', () => {
  it('a read with the position of a command through the primary is never older than the command (40 in a row, half through the forum, half through a query service)', async () => {
    for (let i = 0; i < 20; i++) {
      const through = i % 2 === 0 ? forumReads : onReplica;
      const created = await newPost(`Replicated ${i}`);
      const post = await read(through, `/api/posts/${created.id}`, { position: created.position });
      expect(post, `post ${i}`).toMatchObject({ status: 200, behind: null, body: { _id: created.id, title: `Replicated ${i}`, upVote: 0 } });
      const voted = await vote(created.id, 'up');
      const after = await read(through, `/api/posts/${created.id}`, { position: voted.position });
      expect(after, `vote ${i}`).toMatchObject({ status: 200, behind: null, body: { upVote: 1 } });
    }
  });

  it('and 20 at once: each read waits for its own command, none older', async () => {
    const reads = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const created = await newPost(`At once ${i}`);
        return read(i % 2 === 0 ? forumReads : onReplica, `/api/posts/${created.id}`, { position: created.position });
      }),
    );
    reads.forEach((post, i) => expect(post, `post ${i}`).toMatchObject({ status: 200, behind: null, body: { title: `At once ${i}` } }));
  });

  it("with the replica's replay paused, a read with X-Min-Position waits until replay resumes, then shows the write; /readyz shows the lag", async () => {
    const created = await newPost('Written while replay is paused');
    await read(onReplica, `/api/posts/${created.id}`, { position: created.position });
    await pauseReplay();
    const voted = await vote(created.id, 'up');
    await until('the replica pauses on the vote', async () => (await replayState()) === 'paused');

    let answered = false;
    const waiting = read(onReplica, `/api/posts/${created.id}`, { position: voted.position }).finally(() => (answered = true));
    // the replica has received the vote and not replayed it: its lag shows in /readyz (the impatient service's bound is 200 ms)
    await until('readiness fails on the lag', async () => (await fetch(`${impatient.url}/readyz`)).status === 503);
    const ready = (await (await fetch(`${impatient.url}/readyz`)).json()) as { checks: { replica: { ok: boolean; detail: Record<string, unknown> } } };
    expect(ready.checks.replica.ok).toBe(false);
    expect(ready.checks.replica.detail).toMatchObject({ standby: true, streaming: true, replayPaused: true });
    expect(ready.checks.replica.detail.replayBacklogBytes).toBeGreaterThan(0);
    expect(ready.checks.replica.detail.lagMs).toBeGreaterThan(200);
    expect(ready.checks.replica.detail.checkpointsBehind).toBeGreaterThan(0);
    // a stale read here would show upVote 0: the read waits instead
    expect(answered).toBe(false);
    // a service that waits at most 300 ms answers with X-Read-Behind rather than as if it were fresh
    const hurried = await read(impatient, `/api/posts/${created.id}`, { position: voted.position });
    expect(hurried).toMatchObject({ status: 200, behind: 'true', body: { upVote: 0 } });
    expect(answered).toBe(false);

    await replicaDb.raw('SELECT pg_wal_replay_resume()');
    expect(await waiting).toMatchObject({ status: 200, behind: null, body: { upVote: 1 } });
    await until('readiness is back', async () => (await fetch(`${impatient.url}/readyz`)).status === 200);
  });

  it("the replica's change stream announces a write only once the replica has it: a read without waiting then shows it", async () => {
    const created = await newPost('Streamed from the replica');
    await read(onReplica, `/api/posts/${created.id}`, { position: created.position });
    const opened = async (base: string) => {
      const page = await openStream(base, `/api/stream?topics=post:${created.id}`);
      onTestFinished(() => page.close());
      expect(page.status, page.body).toBe(200);
      await page.next((m) => m.event === 'ready');
      return page;
    };
    const [primaryPage, replicaPage] = [await opened(onPrimary.url), await opened(onReplica.url)];
    const counted = (m: SseMessage) => m.event === 'post-counts' && m.data.postId === created.id && m.data.upVote === 1;

    await pauseReplay();
    await vote(created.id, 'up');
    await until('the replica pauses on the vote', async () => (await replayState()) === 'paused');
    // the query service on the primary announces the vote; the one on the replica does not, and its pages do not show it
    await primaryPage.next(counted);
    expect(await read(onReplica, `/api/posts/${created.id}`)).toMatchObject({ body: { upVote: 0 } });
    expect(replicaPage.messages.filter(counted)).toEqual([]);

    await replicaDb.raw('SELECT pg_wal_replay_resume()');
    await replicaPage.next(counted);
    expect(await read(onReplica, `/api/posts/${created.id}`)).toMatchObject({ status: 200, body: { upVote: 1 } });
  });
});
