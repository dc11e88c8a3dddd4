// @vitest-environment jsdom
import type { StreamMessage } from '@forum/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource, installFakeEventSource, setVisibility } from '../../testing/fake-event-source';
import type { LiveStreamOptions } from './live-options';
import { LiveStream } from './live-stream';

const POST = '6f1c8a52-1111-4a4a-9a9a-000000000001';
const OTHER = '6f1c8a52-1111-4a4a-9a9a-000000000002';

/** How long a wait for the stream may last: it ends as soon as what it waits for is seen. */
const WAIT = { timeout: 10_000 };

let streams: LiveStream[] = [];
/** A stream with short waits, over the fake EventSource; every ticket asked for is counted. */
function liveStream(options: Partial<LiveStreamOptions> = {}) {
  const refetchAll = vi.fn();
  const tickets: string[] = [];
  const fetch = vi.fn((url: RequestInfo | URL, init?: RequestInit) => {
    tickets.push(`${url instanceof Request ? url.url : url.toString()} ${new Headers(init?.headers).get('Authorization')}`);
    return Promise.resolve(new Response(JSON.stringify({ ticket: `ticket-${tickets.length}`, expiresInSeconds: 60 }), { status: 200 }));
  });
  const stream = new LiveStream({
    baseUrl: 'http://forum.test/api',
    token: () => Promise.resolve('member-token'),
    refetchAll,
    hiddenGraceMs: 50,
    retryMs: { first: 20, max: 40 },
    spreadMs: 0,
    fetch,
    ...options,
  });
  streams.push(stream);
  return { stream, refetchAll, tickets };
}

/** Collects the messages a topic's listener is handed. */
function follow(stream: LiveStream, topic: Parameters<LiveStream['subscribe']>[0]) {
  const got: StreamMessage[] = [];
  const stop = stream.subscribe(topic, (message) => got.push(message));
  return { got, stop };
}

/**
 * The stream the client has open once it has settled on `topics`. The first one waits for the
 * connection's own chunk to be imported, which a loaded machine can take seconds over.
 */
async function openWith(topics: string[]): Promise<FakeEventSource> {
  await vi.waitFor(() => {
    const open = FakeEventSource.live();
    expect(open.map((source) => source.topics)).toEqual([topics]);
  }, WAIT);
  return FakeEventSource.live()[0]!;
}

beforeEach(() => {
  installFakeEventSource();
  setVisibility('visible');
});
afterEach(() => {
  for (const stream of streams) stream.dispose();
  streams = [];
  vi.unstubAllGlobals();
});

describe('the change stream of a tab', () => {
  it("opens one stream for the union of the mounted components' topics, and again when the set changes", async () => {
    const { stream } = liveStream();
    const home = follow(stream, 'posts');
    const bell = follow(stream, 'announcements');
    const first = await openWith(['announcements', 'posts']);
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(first.url.startsWith('http://forum.test/api/stream?')).toBe(true);

    // the home page goes, a post page comes (one render): one new stream
    home.stop();
    const post = follow(stream, `post:${POST}`);
    await openWith(['announcements', `post:${POST}`]);
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.opened).toHaveLength(2);

    post.stop();
    bell.stop();
    await vi.waitFor(() => expect(FakeEventSource.live()).toEqual([]), WAIT);
  });

  it('hands each message to the topics it is for, checked against the contract', async () => {
    const { stream } = liveStream();
    const home = follow(stream, 'posts');
    const page = follow(stream, `post:${POST}`);
    const other = follow(stream, `post:${OTHER}`);
    const source = await openWith(['post:' + OTHER, 'post:' + POST, 'posts'].sort());

    source.send('ready', { position: '7.1' }, '7.1');
    source.send('post-created', { position: '7.2', postId: OTHER }, '7.2');
    source.send('post-counts', { position: '7.3', postId: POST, upVote: 2, downVote: 1, commentCount: 4 }, '7.3');
    source.send('comment-added', { position: '7.4', postId: POST, commentId: 'c-1' }, '7.4');
    source.send('post-deleted', { position: '7.5', postId: POST }, '7.5');

    expect(home.got.map((m) => m.type)).toEqual(['post-created', 'post-deleted']);
    expect(page.got).toEqual([
      { type: 'post-counts', data: { position: '7.3', postId: POST, upVote: 2, downVote: 1, commentCount: 4 } },
      { type: 'comment-added', data: { position: '7.4', postId: POST, commentId: 'c-1' } },
      { type: 'post-deleted', data: { position: '7.5', postId: POST } },
    ]);
    expect(other.got).toEqual([]);
  });

  it('drops a message that is not JSON or breaks the contract, and goes on with the next', async () => {
    const { stream } = liveStream();
    const page = follow(stream, `post:${POST}`);
    const source = await openWith([`post:${POST}`]);

    source.send('post-counts', '{not json', '8.1');
    source.send('post-counts', { position: '8.2', postId: POST, upVote: 'many' }, '8.2');
    source.send('comment-added', { postId: POST }, '8.3');
    source.send('comment-added', { position: '8.4', postId: POST, commentId: 'c-2' }, '8.4');

    expect(page.got).toEqual([{ type: 'comment-added', data: { position: '8.4', postId: POST, commentId: 'c-2' } }]);
  });

  it("reads everything again on 'refetch'", async () => {
    const { stream, refetchAll } = liveStream();
    follow(stream, 'posts');
    const source = await openWith(['posts']);
    source.send('refetch', { position: '9.9' }, '9.9');
    await vi.waitFor(() => expect(refetchAll).toHaveBeenCalledTimes(1), WAIT);
  });

  it('opens the next stream from the last event id it was sent (a new EventSource cannot send Last-Event-ID)', async () => {
    const { stream } = liveStream();
    follow(stream, 'posts');
    const first = await openWith(['posts']);
    expect(first.param('lastEventId')).toBeNull();
    first.send('ready', { position: '10.1' }, '10.1');
    first.send('post-created', { position: '10.4', postId: POST }, '10.4');

    follow(stream, 'announcements');
    const second = await openWith(['announcements', 'posts']);
    expect(second.param('lastEventId')).toBe('10.4');
  });

  it('opens again after a growing wait when the stream fails or the server ends it, from the last event id', async () => {
    const { stream } = liveStream({ retryMs: { first: 30, max: 60 } });
    follow(stream, 'posts');
    const first = await openWith(['posts']);
    first.send('post-created', { position: '11.2', postId: POST }, '11.2');

    // the server ends the stream: the client closes it (the browser would reopen the same address) and opens its own
    first.fail();
    expect(first.readyState).toBe(FakeEventSource.CLOSED);
    const second = await openWith(['posts']);
    expect(second.param('lastEventId')).toBe('11.2');

    // the server refuses it: again, later
    second.fail({ closed: true });
    const third = await openWith(['posts']);
    expect(third).not.toBe(second);
    expect(FakeEventSource.opened).toHaveLength(3);
  });

  it('opens at once when the browser is back online, not after the wait', async () => {
    const { stream } = liveStream({ retryMs: { first: 60_000, max: 60_000 } });
    follow(stream, 'posts');
    const first = await openWith(['posts']);
    first.send('post-created', { position: '11.5', postId: POST }, '11.5');
    first.fail();
    window.dispatchEvent(new Event('online'));
    const second = await openWith(['posts']);
    expect(second.param('lastEventId')).toBe('11.5');
  });

  it("asks for a fresh ticket, with the member's token, at every opening that follows 'me'", async () => {
    const { stream, tickets } = liveStream();
    follow(stream, 'announcements');
    const visitor = await openWith(['announcements']);
    expect(visitor.param('ticket')).toBeNull();
    expect(tickets).toEqual([]);

    const me = follow(stream, 'me');
    const first = await openWith(['announcements', 'me']);
    expect(first.param('ticket')).toBe('ticket-1');
    first.fail();
    const second = await openWith(['announcements', 'me']);
    expect(second.param('ticket')).toBe('ticket-2');
    expect(tickets).toEqual(['http://forum.test/api/stream/ticket Bearer member-token', 'http://forum.test/api/stream/ticket Bearer member-token']);

    me.stop();
    expect((await openWith(['announcements'])).param('ticket')).toBeNull();
  });

  it('does not open a stream for `me` without a ticket: it tries again later, and opens once one comes', async () => {
    let refuse = true;
    const { stream } = liveStream({
      fetch: () => Promise.resolve(refuse ? new Response('{}', { status: 503 }) : new Response(JSON.stringify({ ticket: 'late', expiresInSeconds: 60 }))),
    });
    follow(stream, 'me');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(FakeEventSource.opened).toEqual([]);
    refuse = false;
    expect((await openWith(['me'])).param('ticket')).toBe('late');
  });

  it('closes the stream when the tab stays hidden past the grace, and opens it from the last event id when shown', async () => {
    const { stream } = liveStream({ hiddenGraceMs: 40 });
    follow(stream, 'posts');
    const first = await openWith(['posts']);
    first.send('post-created', { position: '12.3', postId: POST }, '12.3');

    // a quick look at another tab: nothing changes
    setVisibility('hidden');
    setVisibility('visible');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(FakeEventSource.live()).toEqual([first]);

    setVisibility('hidden');
    await vi.waitFor(() => expect(first.readyState).toBe(FakeEventSource.CLOSED), WAIT);
    expect(FakeEventSource.live()).toEqual([]);
    // topics change while hidden: nothing opens
    follow(stream, 'announcements');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(FakeEventSource.live()).toEqual([]);

    setVisibility('visible');
    const shown = await openWith(['announcements', 'posts']);
    expect(shown.param('lastEventId')).toBe('12.3');
  });

  it('opens nothing before `openAfter` has settled, then once, with the topics wanted by then', async () => {
    let signInChecked!: () => void;
    const { stream } = liveStream({ openAfter: new Promise<void>((resolve) => (signInChecked = resolve)) });
    follow(stream, 'posts');
    await new Promise((resolve) => setTimeout(resolve, 20));
    follow(stream, 'me');
    expect(FakeEventSource.opened).toEqual([]);
    signInChecked();
    await openWith(['me', 'posts']);
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('never opens where the browser has no EventSource', async () => {
    vi.stubGlobal('EventSource', undefined);
    const { stream } = liveStream();
    const home = follow(stream, 'posts');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(FakeEventSource.opened).toEqual([]);
    expect(home.got).toEqual([]);
  });
});
