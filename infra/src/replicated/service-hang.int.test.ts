import { HEADER_MIN_POSITION } from '@forum/contracts';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandLoad, startTestReplicatedForum, type TestReplicatedForum } from '../testing/replicated.ts';
import { UPSTREAM_HEADERS_TIMEOUT_MS, type ReplicaSet } from './replica-set.ts';
import type { ServiceProcess } from './service-process.ts';
import { openStream, type SseStream } from '../testing/sse-client.ts';

/**
 * A service process that hangs (SIGSTOP: it holds its connections and its port, and answers nothing),
 * behind the gateway of the replicated layout: the gateway finds it out by its /readyz, sends its
 * requests to the other replica, and sends it requests again once it is continued (SIGCONT).
 */
let test: TestReplicatedForum;

beforeAll(async () => {
  test = await startTestReplicatedForum({ command: 2, query: 2, projections: 1 });
}, 180_000);
afterAll(async () => {
  // a stopped process would hold its stop for the whole grace, and the database's sessions with it
  for (const service of [...(test?.forum.services['command-service'] ?? []), ...(test?.forum.services['query-service'] ?? [])]) service.kill('SIGCONT');
  await test?.stop();
}, 60_000);

const count = async (sql: string, values: unknown[] = []) => Number((await test.forum.db.raw<{ rows: { n: string }[] }>(sql, values as never)).rows[0]!.n);
const stateOf = (set: ReplicaSet, replica: ServiceProcess) => set.status().find((status) => status.origin === replica.url)!;

/** Waits until `set` has `replica` up (or out), and says when. */
async function until(set: ReplicaSet, replica: ServiceProcess, up: boolean): Promise<number> {
  await waitFor(
    () => stateOf(set, replica).up,
    (now) => now === up,
    60_000,
    20,
  );
  return Date.now();
}

interface Read {
  readonly startedAt: number;
  readonly ms: number;
  readonly status: number;
}

describe('a service that hangs (SIGSTOP) behind the gateway', () => {
  it(
    'a query service: reads go on being answered by the other, it is out within seconds, and it gets reads again once continued',
    { timeout: 180_000 },
    async () => {
      const user = await test.newUser('Ivy');
      const created = await fetch(`${test.base}/api/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Read while a replica hangs', description: 'Read and read again', tags: [] }),
      });
      const { id, position } = (await created.json()) as { id: string; position: string };
      expect((await fetch(`${test.base}/api/posts/${id}`, { headers: { [HEADER_MIN_POSITION]: position } })).status).toBe(200);

      // two change streams, opened one after the other: one on each query service
      const streams: SseStream[] = [];
      for (let i = 0; i < 2; i++) {
        const opened = await openStream(test.base, '/api/stream?topics=posts');
        streams.push(opened);
        await opened.next((message) => message.event === 'ready');
      }

      // readers through the gateway, three at once, the home page and the post in turn
      const reads: Read[] = [];
      let reading = true;
      const readers = Array.from({ length: 3 }, async (_, reader) => {
        for (let turn = reader; reading; turn++) {
          const startedAt = Date.now();
          const answer = await fetch(`${test.base}${turn % 2 ? `/api/posts/${id}` : '/api/posts?page=1'}`, {
            signal: AbortSignal.timeout(UPSTREAM_HEADERS_TIMEOUT_MS * 3),
          }).catch(() => null);
          await answer?.arrayBuffer().catch(() => null);
          reads.push({ startedAt, ms: Date.now() - startedAt, status: answer?.status ?? 0 });
        }
      });
      const set = test.forum.replicaSets.query;
      const [stopped] = test.forum.services['query-service'];
      try {
        await waitFor(
          () => reads.length,
          (n) => n >= 20,
          60_000,
        );
        stopped!.kill('SIGSTOP');
        const stoppedAt = Date.now();
        const outAt = await until(set, stopped!, false);
        const sentWhenOut = stateOf(set, stopped!).requests;
        const readyz = (await (await fetch(`${test.base}/readyz`)).json()) as { checks: Record<string, { ok: boolean; detail: Record<string, string> }> };
        expect(readyz.checks.queryService).toMatchObject({ ok: true, detail: { [stopped!.url]: 'down' } });
        await waitFor(
          () => reads.filter((read) => read.startedAt > outAt).length,
          (n) => n >= 30,
          60_000,
        );
        // nothing was sent to it while it was out
        expect(stateOf(set, stopped!).requests).toBe(sentWhenOut);
        // the stream it was sending is cut, and its client connects again (to the other); the other's stays open
        expect(streams.map((opened) => opened.ended).sort()).toEqual([false, true]);
        const again = await openStream(test.base, '/api/stream?topics=posts');
        streams.push(again);
        await again.next((message) => message.event === 'ready');

        stopped!.kill('SIGCONT');
        const continuedAt = Date.now();
        const backAt = await until(set, stopped!, true);
        await waitFor(
          () => stateOf(set, stopped!).requests,
          (n) => n > sentWhenOut,
          60_000,
        );
        reading = false;
        await Promise.all(readers);

        const during = reads.filter((read) => read.startedAt >= stoppedAt - 1000);
        const longest = Math.max(...during.map((read) => read.ms));
        const failed = reads.filter((read) => read.status !== 200);
        console.info(
          `query service stopped: out after ${outAt - stoppedAt} ms; back ${backAt - continuedAt} ms after SIGCONT; ` +
            `${during.length} reads from the stop on, the longest ${longest} ms; ${failed.length} failed of ${reads.length}`,
        );
        expect(failed).toEqual([]);
        // no read waited for the upstream deadline: the ones sent to it before it was out went to the other replica once it was
        expect(longest).toBeLessThan(UPSTREAM_HEADERS_TIMEOUT_MS);
      } finally {
        reading = false;
        stopped!.kill('SIGCONT');
        await Promise.all(readers);
        for (const opened of streams) opened.close();
      }
    },
  );

  it(
    'a command service: the other acknowledges the members’ writes, one cut off is sent again with its Idempotency-Key, nothing is written twice, and it gets writes again once continued',
    { timeout: 240_000 },
    async () => {
      const users = await Promise.all(['Jon', 'Kay', 'Lou'].map((name) => test.newUser(name)));
      const load = new CommandLoad(test.base, users);
      const set = test.forum.replicaSets.command;
      const [stopped] = test.forum.services['command-service'];
      await load.start();
      try {
        await waitFor(
          () => load.acknowledged.length,
          (n) => n >= 20,
          60_000,
        );
        stopped!.kill('SIGSTOP');
        const stoppedAt = Date.now();
        const acknowledgedAtStop = load.acknowledged.length;
        const outAt = await until(set, stopped!, false);
        const sentWhenOut = stateOf(set, stopped!).requests;
        // the members' writes go on being acknowledged while it is stopped
        await waitFor(
          () => load.acknowledged.length,
          (n) => n >= acknowledgedAtStop + 30,
          90_000,
        );
        expect(stateOf(set, stopped!).requests).toBe(sentWhenOut);
        const acknowledgedWhileStopped = load.acknowledged.length - acknowledgedAtStop;

        stopped!.kill('SIGCONT');
        const continuedAt = Date.now();
        const backAt = await until(set, stopped!, true);
        await waitFor(
          () => stateOf(set, stopped!).requests,
          (n) => n > sentWhenOut,
          60_000,
        );
        await load.stop();

        const answered = load.acknowledged.map((command) => command.answeredAt).filter((at) => at >= stoppedAt);
        const gaps = answered.map((at, i) => at - (i === 0 ? stoppedAt : answered[i - 1]!));
        const resent = load.sent.filter((command) => command.attempts > 1);
        console.info(
          `command service stopped: out after ${outAt - stoppedAt} ms; back ${backAt - continuedAt} ms after SIGCONT; ` +
            `${acknowledgedWhileStopped} writes acknowledged while it was stopped, the longest wait between two ${Math.max(...gaps)} ms; ` +
            `${resent.length} of ${load.sent.length} sent again by their client`,
        );
        // every command was acknowledged in the end
        expect(load.sent.filter((command) => command.status < 200 || command.status >= 300)).toEqual([]);
      } finally {
        stopped!.kill('SIGCONT');
        await load.stop();
      }

      // each acknowledged post and comment is in the log exactly once, and nothing else of theirs is
      const created = load.acknowledged.filter((command) => command.kind !== 'vote');
      const streams = created.map((command) => `${command.kind}-${command.body.id}`);
      expect(await count(`SELECT count(*) AS n FROM eventstore.events WHERE stream_id = ANY(?) AND type IN ('PostCreated', 'CommentAdded')`, [streams])).toBe(
        streams.length,
      );
      const authors = users.map((user) => user.id);
      expect(
        await count(`SELECT count(*) AS n FROM eventstore.events WHERE type IN ('PostCreated', 'CommentAdded') AND metadata->>'actorId' = ANY(?)`, [authors]),
      ).toBe(streams.length);
    },
  );
});
