import { randomUUID } from 'node:crypto';
import { HEADER_IDEMPOTENCY_KEY, HEADER_MIN_POSITION, StreamTicket } from '@forum/contracts';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandLoad, startTestReplicatedForum, type TestReplicatedForum } from '../testing/replicated.ts';
import { openStream } from '../testing/sse-client.ts';

let test: TestReplicatedForum;

beforeAll(async () => {
  test = await startTestReplicatedForum({ command: 2, query: 2, projections: 1 });
}, 180_000);
afterAll(async () => {
  await test?.stop();
}, 60_000);

const count = async (sql: string, values: unknown[] = []) => Number((await test.forum.db.raw<{ rows: { n: string }[] }>(sql, values as never)).rows[0]!.n);

describe('two command services and two query services behind the gateway', () => {
  it('a retry with the same Idempotency-Key through the other command service answers the first answer and appends nothing', async () => {
    const user = await test.newUser('Dee');
    const [first, second] = test.forum.services['command-service'];
    const key = randomUUID();
    const send = (base: string) =>
      fetch(`${base}/api/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json', [HEADER_IDEMPOTENCY_KEY]: key },
        body: JSON.stringify({ title: 'Sent twice', description: 'Once to each command service', tags: [] }),
      });
    const one = await send(first!.url);
    expect(one.status).toBe(201);
    const created = (await one.json()) as { id: string };
    const two = await send(second!.url);
    expect(two.status).toBe(201);
    expect(await two.json()).toEqual(created);
    expect(await count(`SELECT count(*) AS n FROM eventstore.events WHERE stream_id = ?`, [`post-${created.id}`])).toBe(1);
  });

  it('the change stream passes through the gateway as it is written, and a ticket one query service signed opens a stream on the other', async () => {
    const user = await test.newUser('Hal');
    const stream = await openStream(test.base, '/api/stream?topics=posts');
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    await stream.next((message) => message.event === 'ready');
    const created = await fetch(`${test.base}/api/posts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Seen live', description: 'Through the gateway', tags: [] }),
    });
    const { id } = (await created.json()) as { id: string };
    // the message comes while the stream stays open: nothing between holds it back (the post the
    // test before wrote may come first, its projection applied after the stream was ready)
    const seen = await stream.next((message) => message.event === 'post-created' && (message.data as { postId?: string }).postId === id, { timeoutMs: 15_000 });
    expect(seen.data).toMatchObject({ postId: id });
    expect(stream.ended).toBe(false);
    stream.close();

    const [signer, other] = test.forum.services['query-service'];
    const ticket = await fetch(`${signer!.url}/api/stream/ticket`, { headers: { Authorization: `Bearer ${user.token}` } });
    expect(ticket.status).toBe(200);
    const mine = await openStream(other!.url, `/api/stream?topics=me&ticket=${encodeURIComponent(StreamTicket.parse(await ticket.json()).ticket)}`);
    expect(mine.status).toBe(200);
    mine.close();
  });

  it(
    'when one of each is killed (SIGKILL) mid-load, the clients’ retries succeed through the others, every acknowledged command is in the log once, and every read answers',
    { timeout: 180_000 },
    async () => {
      const users = await Promise.all(['Eve', 'Fay', 'Gus'].map((name) => test.newUser(name)));
      const load = new CommandLoad(test.base, users);
      await load.start();

      // a reader follows the writes: each read waits for the latest acknowledged command (X-Min-Position)
      let reading = true;
      const reads: number[] = [];
      const reader = (async () => {
        while (reading) {
          const latest = load.acknowledged.filter((command) => command.body.position).at(-1);
          const answer = await fetch(`${test.base}/api/posts/${latest?.postId}`, {
            headers: latest ? { [HEADER_MIN_POSITION]: latest.body.position! } : {},
          }).catch(() => null);
          reads.push(answer?.status ?? 0);
          await answer?.body?.cancel();
        }
      })();

      await waitFor(
        () => load.acknowledged.length,
        (n) => n >= 20,
        60_000,
      );
      test.forum.services['command-service'][0]!.kill('SIGKILL');
      test.forum.services['query-service'][0]!.kill('SIGKILL');
      const acknowledged = load.acknowledged.length;
      await waitFor(
        () => load.acknowledged.length,
        (n) => n >= acknowledged + 40,
        60_000,
      );
      // the killed services are started again, and the gateway sends them requests again
      await waitFor(
        () => test.forum.services['command-service'][0]!.restarts + test.forum.services['query-service'][0]!.restarts,
        (n) => n === 2,
        60_000,
      );
      const readyz = async () => (await (await fetch(`${test.base}/readyz`)).json()) as { checks: Record<string, { detail?: Record<string, string> }> };
      await waitFor(
        readyz,
        (body) => ['commandService', 'queryService'].every((service) => Object.values(body.checks[service]!.detail!).every((state) => state === 'up')),
        60_000,
        200,
      );
      await load.stop();
      reading = false;
      await reader;

      const retried = load.sent.filter((command) => command.attempts > 1).length;
      console.info(`service kill: ${load.sent.length} commands, ${retried} sent again by their client; ${reads.length} reads`);
      // every command was acknowledged in the end, every read answered
      expect(load.sent.filter((command) => command.status < 200 || command.status >= 300)).toEqual([]);
      expect(reads.filter((status) => status !== 200)).toEqual([]);

      // each acknowledged post and comment is in the log exactly once, and nothing else is
      const created = load.acknowledged.filter((command) => command.kind !== 'vote');
      const streams = created.map((command) => `${command.kind}-${command.body.id}`);
      expect(await count(`SELECT count(*) AS n FROM eventstore.events WHERE stream_id = ANY(?) AND type IN ('PostCreated', 'CommentAdded')`, [streams])).toBe(
        streams.length,
      );
      expect(await count(`SELECT count(DISTINCT stream_id) AS n FROM eventstore.events WHERE stream_id = ANY(?)`, [streams])).toBe(streams.length);
      const authors = users.map((user) => user.id);
      expect(
        await count(`SELECT count(*) AS n FROM eventstore.events WHERE type IN ('PostCreated', 'CommentAdded') AND metadata->>'actorId' = ANY(?)`, [authors]),
      ).toBe(streams.length);
    },
  );
});
