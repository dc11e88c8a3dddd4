import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { LogPosition } from '@forum/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamHub, type HubMessage, type StreamSink } from './hub.ts';

/** The hub over real sockets (a client that never reads) and over a recording sink (what each stream is sent). */
const at = (n: number): LogPosition => ({ transactionId: 100n + BigInt(n), globalPosition: BigInt(n) });
const options = { maxStreams: 100, maxStreamsPerClient: 100, replayMax: 4, heartbeatMs: 0, slowClientBytes: 16 * 1024 };
const hubs: StreamHub[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) hub.close();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});
const newHub = (start = at(0), overrides: Partial<typeof options> = {}) => {
  const hub = new StreamHub(start, { ...options, ...overrides });
  hubs.push(hub);
  return hub;
};

/** A sink that keeps what it is sent, as text. */
const recording = () => {
  let text = '';
  const sink: StreamSink & { readonly text: string; ended: boolean } = {
    write: (chunk) => ((text += chunk), true),
    writableLength: 0,
    end: () => void (sink.ended = true),
    destroy: () => void (sink.ended = true),
    get text() {
      return text;
    },
    ended: false,
  };
  return sink;
};
const events = (text: string) => [...text.matchAll(/id: (\S+)\nevent: (\S+)\n/g)].map((m) => `${m[2]}@${m[1]}`);
const comment = (n: number, postId = 'a'): HubMessage => ({
  type: 'comment-added',
  position: at(n),
  topics: [`post:${postId}`],
  data: { postId, commentId: `c${n}` },
});

describe('StreamHub', () => {
  it("sends each stream its topics' messages and a member's private ones to that member alone", () => {
    const hub = newHub();
    const [onA, onB, mine, theirs] = [recording(), recording(), recording(), recording()];
    hub.open(onA, { topics: ['post:a'], memberId: null, resumeAfter: null, client: 'here' });
    hub.open(onB, { topics: ['post:b', 'posts'], memberId: null, resumeAfter: null, client: 'here' });
    hub.open(mine, { topics: ['me'], memberId: 'm1', resumeAfter: null, client: 'here' });
    hub.open(theirs, { topics: ['me'], memberId: 'm2', resumeAfter: null, client: 'here' });
    hub.publish(
      [
        comment(1, 'a'),
        { type: 'post-deleted', position: at(2), topics: ['posts', 'post:b'], data: { postId: 'b' } },
        { type: 'notifications', position: at(2), topics: ['me'], memberId: 'm1', data: {} },
      ],
      at(2),
    );
    expect(events(onA.text)).toEqual(['ready@100.0', 'comment-added@101.1']);
    // one message of two of its topics: once
    expect(events(onB.text)).toEqual(['ready@100.0', 'post-deleted@102.2']);
    expect(events(mine.text)).toEqual(['ready@100.0', 'notifications@102.2']);
    expect(events(theirs.text)).toEqual(['ready@100.0']);
    hub.closeMember('m1');
    expect([mine.ended, theirs.ended, onA.ended]).toEqual([true, false, false]);
  });

  it('replays what a client missed after its Last-Event-ID, and tells one from before the kept messages to refetch', () => {
    const hub = newHub();
    hub.publish([comment(1), comment(2), comment(3)], at(3));
    const back = recording();
    hub.open(back, { topics: ['post:a'], memberId: null, resumeAfter: at(1), client: 'here' });
    expect(events(back.text)).toEqual(['ready@101.1', 'comment-added@102.2', 'comment-added@103.3']);
    // from before the hub began: refetch
    const old = recording();
    hub.open(old, { topics: ['post:a'], memberId: null, resumeAfter: { transactionId: 1n, globalPosition: 1n }, client: 'here' });
    expect(events(old.text)).toEqual(['ready@103.3', 'refetch@103.3']);
    // the ring holds 4: after three more, the first two are gone
    hub.publish([comment(4), comment(5), comment(6)], at(6));
    const behind = recording();
    hub.open(behind, { topics: ['post:a'], memberId: null, resumeAfter: at(1), client: 'here' });
    expect(events(behind.text)).toEqual(['ready@106.6', 'refetch@106.6']);
    const near = recording();
    hub.open(near, { topics: ['post:a'], memberId: null, resumeAfter: at(2), client: 'here' });
    expect(events(near.text)).toEqual(['ready@102.2', 'comment-added@103.3', 'comment-added@104.4', 'comment-added@105.5', 'comment-added@106.6']);
  });

  it('sends a client back from a process further on nothing it saw there', () => {
    const hub = newHub();
    const ahead = recording();
    hub.open(ahead, { topics: ['post:a'], memberId: null, resumeAfter: at(2), client: 'here' });
    hub.publish([comment(1), comment(2), comment(3)], at(3));
    expect(events(ahead.text)).toEqual(['ready@102.2', 'comment-added@103.3']);
  });

  it('tells every stream to refetch after a rebuild, and so every resume from before it', () => {
    const hub = newHub();
    hub.publish([comment(1)], at(1));
    const open = recording();
    hub.open(open, { topics: ['posts'], memberId: null, resumeAfter: null, client: 'here' });
    hub.refetchAll();
    expect(events(open.text)).toEqual(['ready@101.1', 'refetch@101.1']);
    const back = recording();
    hub.open(back, { topics: ['post:a'], memberId: null, resumeAfter: at(0), client: 'here' });
    expect(events(back.text)).toEqual(['ready@101.1', 'refetch@101.1']);
  });

  it('refuses streams beyond its most, and every stream once closed', () => {
    const hub = newHub(at(0), { maxStreams: 1 });
    const first = recording();
    expect(hub.open(first, { topics: ['posts'], memberId: null, resumeAfter: null, client: 'here' })).not.toBeNull();
    expect(hub.open(recording(), { topics: ['posts'], memberId: null, resumeAfter: null, client: 'here' })).toBeNull();
    hub.close();
    expect(first.ended).toBe(true);
    expect(hub.size).toBe(0);
    expect(hub.accepting).toBe(false);
  });

  it("refuses one client's streams beyond its share, others' not, and takes that client's again once one ends", () => {
    const hub = newHub(at(0), { maxStreamsPerClient: 2 });
    const open = (client: string) => hub.open(recording(), { topics: ['posts'], memberId: null, resumeAfter: null, client });
    const [first] = [open('flood'), open('flood')];
    expect(hub.takes('flood')).toBe(false);
    expect(open('flood')).toBeNull();
    expect(open('someone else')).not.toBeNull();
    first!.close();
    expect(hub.takes('flood')).toBe(true);
    expect(open('flood')).not.toBeNull();
    expect(hub.size).toBe(3);
  });

  it('tells a client whose missed messages are more than a slow client may have waiting to refetch, and cuts off no client for one large write', () => {
    /** A socket that has sent nothing of the latest write yet: it all waits, as on a fresh connection. */
    const fresh = () => {
      const sink = recording();
      let waiting = 0;
      return Object.assign(sink, {
        write: (chunk: string) => {
          waiting = chunk.length;
          return false;
        },
        get writableLength() {
          return waiting;
        },
      });
    };
    const hub = newHub(at(0), { replayMax: 200, slowClientBytes: 2048 });
    hub.publish(
      Array.from({ length: 100 }, (_, i) => ({ type: 'post-created' as const, position: at(i + 1), topics: ['posts'], data: { postId: `p${i}` } })),
      at(100),
    );
    const back = recording();
    hub.open(back, { topics: ['posts'], memberId: null, resumeAfter: at(1), client: 'here' });
    expect(events(back.text)).toEqual(['ready@101.1', 'refetch@200.100']);
    const reading = fresh();
    hub.open(reading, { topics: ['posts'], memberId: null, resumeAfter: null, client: 'here' });
    hub.publish(
      Array.from({ length: 100 }, (_, i) => ({ type: 'post-created' as const, position: at(101 + i), topics: ['posts'], data: { postId: `q${i}` } })),
      at(200),
    );
    expect(reading.ended).toBe(false);
    expect(hub.size).toBe(2);
  });

  it('ends the stream of a client that does not read once its unread bytes pass the bound; a reading client goes on', async () => {
    const hub = newHub(at(0), { replayMax: 10 });
    let largest = 0;
    let closedOnServer = 0;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      // what waits in this process for the client, measured at every write
      const sink: StreamSink = {
        write: (chunk) => {
          const written = res.write(chunk);
          largest = Math.max(largest, res.writableLength);
          return written;
        },
        get writableLength() {
          return res.writableLength;
        },
        end: () => res.end(),
        destroy: () => res.destroy(),
      };
      const stream = hub.open(sink, { topics: ['posts'], memberId: null, resumeAfter: null, client: 'here' });
      (res as ServerResponse).once('close', () => {
        closedOnServer += 1;
        stream?.close();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const request = `GET / HTTP/1.1\r\nHost: x\r\n\r\n`;
    // one client reads everything, the other reads nothing at all
    let read = 0;
    const reader = connect(port, '127.0.0.1', () => reader.write(request));
    reader.on('data', (chunk) => (read += chunk.length));
    const sleeper = connect(port, '127.0.0.1', () => sleeper.write(request));
    sleeper.pause();
    sleeper.on('error', () => {});
    await expect.poll(() => hub.size).toBe(2);
    const big = 'x'.repeat(4096);
    let n = 0;
    // publish until the sleeper is cut off (the kernel's buffers fill first), bounded in case it never is
    while (hub.size === 2 && n < 20_000) {
      n += 1;
      hub.publish([{ type: 'post-created', position: at(n), topics: ['posts'], data: { postId: big } }], at(n));
      // a batch at a time, as the follower publishes: the reading client reads between them
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hub.size).toBe(1);
    // its connection is gone from the server, with what waited for it
    await expect.poll(() => closedOnServer).toBe(1);
    sleeper.destroy();
    // never more than the bound and one message waited for it
    expect(largest).toBeLessThanOrEqual(options.slowClientBytes + 4096 + 200);
    await expect.poll(() => read).toBeGreaterThan(n * 4096);
    reader.destroy();
  });
});
