import { compareLogPositions, positionToken, type LogPosition, type StreamMessageType } from '@forum/contracts';

/** Where a stream's bytes go: the HTTP response (a ServerResponse is one). */
export interface StreamSink {
  /** False when the bytes wait in memory for the client to read them. */
  write(chunk: string): boolean;
  /** Bytes waiting for the client. */
  readonly writableLength: number;
  end(): void;
  destroy(): void;
}

/** A message for the streams of its topics (or, private, of one member), at the position it reflects. */
export interface HubMessage {
  readonly type: StreamMessageType;
  readonly position: LogPosition;
  /** Its topics; a private message's is `me`. */
  readonly topics: readonly string[];
  /** A private message's member: only their own streams get it. */
  readonly memberId?: string;
  /** The message's data, its position aside (added here). */
  readonly data: Readonly<Record<string, string | number>>;
}

export interface HubOptions {
  /** Streams held at once; `open` refuses more. */
  readonly maxStreams: number;
  /** Streams one client (an address, see clientAddress) holds at once: one stranger cannot take them all. */
  readonly maxStreamsPerClient: number;
  /** Messages kept for resumes (a ring). */
  readonly replayMax: number;
  /** A comment line to every stream this often (0: none). */
  readonly heartbeatMs: number;
  /** A stream whose client leaves more than this many bytes unread is ended. */
  readonly slowClientBytes: number;
}

/** What a stream follows: its topics, and the member whose private messages it gets (with the `me` topic). */
export interface StreamSubscription {
  readonly topics: readonly string[];
  readonly memberId: string | null;
  /** The last message's position the client saw (its Last-Event-ID), when it resumes. */
  readonly resumeAfter: LogPosition | null;
  /** Who opened it: the address its streams count against (maxStreamsPerClient). */
  readonly client: string;
}

interface Stream {
  readonly sink: StreamSink;
  readonly topics: readonly string[];
  readonly memberId: string | null;
  readonly client: string;
  /** Messages up to here were sent before (a resume from a process further on): not sent again. */
  skipUntil: LogPosition | null;
  /** Called once when the stream ends, whoever ends it. */
  readonly ended: () => void;
}

interface Kept {
  readonly position: LogPosition;
  readonly topics: readonly string[];
  readonly memberId: string | undefined;
  readonly frame: string;
}

/** A message as Server-Sent Events frame it: its position as `id`, its type as `event`, its data as JSON. */
export function sseFrame(type: StreamMessageType, position: LogPosition, data: Readonly<Record<string, string | number>> = {}): string {
  const token = positionToken(position);
  return `id: ${token}\nevent: ${type}\ndata: ${JSON.stringify({ ...data, position: token })}\n\n`;
}

/** The heartbeat: a comment line, which clients ignore and proxies see as traffic. */
export const HEARTBEAT = ': ping\n\n';

/**
 * The streams of one query-service process and the messages they get: a stream follows topics
 * (and its member's private messages), each message is framed once and written to every stream of
 * its topics, a batch's messages to one stream in one write. The last `replayMax` messages are kept
 * for a client that reconnects with the last id it saw; one that comes back from further behind,
 * or from before this process began, or across a rebuild, is told to refetch. A client that does
 * not read is cut off once `slowClientBytes` wait for it: memory stays bounded whatever clients do.
 */
export class StreamHub {
  private readonly streams = new Set<Stream>();
  private readonly byTopic = new Map<string, Set<Stream>>();
  private readonly byMember = new Map<string, Set<Stream>>();
  private readonly byClient = new Map<string, number>();
  private readonly ring: (Kept | undefined)[];
  /** The ring's oldest entry's index, and how many it holds. */
  private first = 0;
  private kept = 0;
  /** How far the messages go: the last batch's position (where a new stream starts). */
  private at: LogPosition;
  /** A resume from before here cannot be served from the ring (evicted, before this process began, or before a rebuild). */
  private floor: LogPosition;
  private readonly heartbeat: NodeJS.Timeout | null;
  private closed = false;

  constructor(
    start: LogPosition,
    private readonly options: HubOptions,
  ) {
    this.at = start;
    this.floor = start;
    this.ring = new Array<Kept | undefined>(options.replayMax);
    this.heartbeat = options.heartbeatMs > 0 ? setInterval(() => this.beat(), options.heartbeatMs) : null;
    this.heartbeat?.unref();
  }

  /** Streams open now. */
  get size(): number {
    return this.streams.size;
  }

  /** Whether `open` would take a stream now (not closed, not full). */
  get accepting(): boolean {
    return !this.closed && this.streams.size < this.options.maxStreams;
  }

  /** Whether `client` holds fewer streams than it may. */
  takes(client: string): boolean {
    return (this.byClient.get(client) ?? 0) < this.options.maxStreamsPerClient;
  }

  /** Where the messages have got to. */
  get position(): LogPosition {
    return this.at;
  }

  /**
   * A new stream: its first message (`ready`, whose id is where it starts), then what it missed
   * since `resumeAfter` or `refetch`, then its topics' messages as they come. Null when the hub
   * holds its most streams already (in all, or of this client), or is closed. `ended` is called once the stream ends for any
   * reason (its client left, it was too slow, the hub closed).
   */
  open(sink: StreamSink, subscription: StreamSubscription, ended: () => void = () => {}): { close(): void } | null {
    if (!this.accepting || !this.takes(subscription.client)) return null;
    const stream: Stream = { sink, topics: subscription.topics, memberId: subscription.memberId, client: subscription.client, skipUntil: null, ended };
    this.streams.add(stream);
    this.byClient.set(stream.client, (this.byClient.get(stream.client) ?? 0) + 1);
    for (const topic of stream.topics) add(this.byTopic, topic, stream);
    if (stream.memberId !== null) add(this.byMember, stream.memberId, stream);
    this.write(stream, this.opening(stream, subscription.resumeAfter));
    return { close: () => this.end(stream, 'left') };
  }

  private opening(stream: Stream, after: LogPosition | null): string {
    if (after === null) return sseFrame('ready', this.at);
    if (compareLogPositions(after, this.floor) < 0) return sseFrame('ready', this.at) + sseFrame('refetch', this.at);
    if (compareLogPositions(after, this.at) >= 0) {
      // seen further on (another process, ahead of this one): what this one has not passed yet is new
      stream.skipUntil = after;
      return sseFrame('ready', after);
    }
    let frames = sseFrame('ready', after);
    for (let i = this.firstAfter(after); i < this.kept; i++) {
      const kept = this.ring[(this.first + i) % this.ring.length]!;
      if (!this.follows(stream, kept.topics, kept.memberId)) continue;
      frames += kept.frame;
      // more missed than a client may have waiting: reading again costs it less than the replay
      if (frames.length > this.options.slowClientBytes) return sseFrame('ready', after) + sseFrame('refetch', this.at);
    }
    return frames;
  }

  /** The ring's first index (0 … kept) whose position is past `after`: positions rise along the ring. */
  private firstAfter(after: LogPosition): number {
    let low = 0;
    let high = this.kept;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareLogPositions(this.ring[(this.first + middle) % this.ring.length]!.position, after) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private follows(stream: Stream, topics: readonly string[], memberId: string | undefined): boolean {
    if (memberId !== undefined) return stream.memberId === memberId;
    return topics.some((topic) => stream.topics.includes(topic));
  }

  /**
   * A batch's messages (in log order, none past `upTo`), sent to their streams and kept for
   * resumes; then the hub is at `upTo`. Answers how many streams were written to.
   */
  publish(messages: readonly HubMessage[], upTo: LogPosition): number {
    const pending = new Map<Stream, string>();
    for (const message of messages) {
      const frame = sseFrame(message.type, message.position, message.data);
      this.keep({ position: message.position, topics: message.topics, memberId: message.memberId, frame });
      for (const stream of this.audience(message)) {
        if (stream.skipUntil && compareLogPositions(message.position, stream.skipUntil) <= 0) continue;
        pending.set(stream, (pending.get(stream) ?? '') + frame);
      }
    }
    if (compareLogPositions(upTo, this.at) > 0) this.at = upTo;
    for (const [stream, frames] of pending) this.write(stream, frames);
    return pending.size;
  }

  private audience(message: HubMessage): Set<Stream> {
    if (message.memberId !== undefined) return this.byMember.get(message.memberId) ?? new Set();
    if (message.topics.length === 1) return this.byTopic.get(message.topics[0]!) ?? new Set();
    const all = new Set<Stream>();
    for (const topic of message.topics) for (const stream of this.byTopic.get(topic) ?? []) all.add(stream);
    return all;
  }

  private keep(entry: Kept): void {
    if (this.kept < this.ring.length) {
      this.ring[(this.first + this.kept) % this.ring.length] = entry;
      this.kept += 1;
      return;
    }
    // the oldest goes: a resume from before its position can no longer be served
    this.floor = this.ring[this.first]!.position;
    this.ring[this.first] = entry;
    this.first = (this.first + 1) % this.ring.length;
  }

  /**
   * What every stream shows may have changed in ways no message says (a rebuild switched in, the
   * follower started again): each is told to refetch, and a resume from before now is too.
   */
  refetchAll(position: LogPosition = this.at): void {
    if (compareLogPositions(position, this.at) > 0) this.at = position;
    this.floor = this.at;
    const frame = sseFrame('refetch', this.at);
    for (const stream of [...this.streams]) this.write(stream, frame);
  }

  /** The members with a private stream open here. */
  membersListening(): string[] {
    return [...this.byMember.keys()];
  }

  /** Ends the member's own streams (their account was disabled or erased); their public ones go on. */
  closeMember(memberId: string): void {
    for (const stream of [...(this.byMember.get(memberId) ?? [])]) this.end(stream, 'closed');
  }

  /** Ends every stream and refuses new ones (the server is stopping: nothing waits for a stream). */
  close(): void {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const stream of [...this.streams]) this.end(stream, 'closed');
  }

  private beat(): void {
    for (const stream of [...this.streams]) this.write(stream, HEARTBEAT);
  }

  /** A client is slow when what it left unread before this write passes the bound (one large write alone is no sign of it). */
  private write(stream: Stream, chunk: string): void {
    if (!this.streams.has(stream)) return;
    if (stream.sink.writableLength > this.options.slowClientBytes) this.end(stream, 'slow');
    else stream.sink.write(chunk);
  }

  private end(stream: Stream, why: 'left' | 'closed' | 'slow'): void {
    if (!this.streams.delete(stream)) return;
    const held = this.byClient.get(stream.client)! - 1;
    if (held === 0) this.byClient.delete(stream.client);
    else this.byClient.set(stream.client, held);
    for (const topic of stream.topics) remove(this.byTopic, topic, stream);
    if (stream.memberId !== null) remove(this.byMember, stream.memberId, stream);
    // a slow client's unread bytes are dropped at once; otherwise the stream ends cleanly (EventSource reconnects either way)
    if (why === 'slow') stream.sink.destroy();
    else if (why === 'closed') {
      stream.sink.end();
      if (stream.sink.writableLength > 0) stream.sink.destroy();
    }
    stream.ended();
  }
}

function add<K, V>(index: Map<K, Set<V>>, key: K, value: V) {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
}

function remove<K, V>(index: Map<K, Set<V>>, key: K, value: V) {
  const set = index.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
}
