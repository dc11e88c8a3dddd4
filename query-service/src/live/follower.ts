import { positionToken, postTopic, type LogPosition } from '@forum/contracts';
import type { EventStore, RecordedEvent, Subscription } from '@forum/eventstore';
import { abortableSleep, batchJoin, inSpan, type Logger } from '@forum/platform';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import type { PostCounts } from '../store/posts.ts';
import { CHANGES, changesOf } from './changes.ts';
import type { HubMessage, StreamHub } from './hub.ts';

export interface FollowerDeps {
  /** The log: followed from its head. */
  readonly store: Pick<EventStore, 'subscribe' | 'head'>;
  /** Says when the live projections have applied a batch. */
  readonly watcher: CheckpointWatcher;
  /** The counts of posts (those that exist), read once a batch. */
  readonly countsOf: (postIds: readonly string[]) => Promise<PostCounts[]>;
  /** Which of `members` have notifications the events at these global positions made or moved (read once a batch). */
  readonly reachedBy: (positions: readonly bigint[], members: readonly string[]) => Promise<string[]>;
  readonly hub: StreamHub;
  readonly logger: Logger;
  /** The wait before following again after a failure. */
  readonly retryMs?: number;
}

/**
 * The change stream's one source in a query-service process: it follows the event log (nothing
 * opened: messages carry ids and counts), turns each batch into messages (see CHANGES) and hands
 * them to the hub once every live projection has applied the batch, so that a read after a
 * message shows what it says. A post's counts are read from the read model once a batch for every
 * post the batch touched: one statement per batch per process, whatever the number of clients; so
 * are the members (among those with a private stream here) whose notifications the batch's posts,
 * comments and edits reached (the fan-out is the read model's: only it knows whom they reached).
 * A failure starts it again from the log's head, and every stream is told to refetch; so is
 * every stream when a rebuild switches in (the read models changed under them).
 */
export class ChangeFollower {
  private subscription: Subscription | null = null;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private readonly unwatch: () => void;

  constructor(private readonly deps: FollowerDeps) {
    this.unwatch = deps.watcher.onChange((change) => {
      if (change === 'switched') deps.hub.refetchAll();
    });
  }

  /** Follows the log after `from` (the hub's start), and again from the head after each failure, until stopped. */
  start(from: LogPosition): void {
    this.running = this.follow(from);
  }

  private async follow(from: LogPosition): Promise<void> {
    let after: LogPosition | null = from;
    while (!this.abort.signal.aborted) {
      try {
        if (after === null) {
          after = await this.deps.store.head();
          // what the clients read again must hold what came before the head: no message will say it
          if (!(await this.applied(after))) break;
          this.deps.hub.refetchAll(after);
        }
        this.subscription = this.deps.store.subscribe({ after, open: [], onBatch: (events) => this.handle(events) });
        await this.subscription.done;
      } catch (error) {
        if (this.abort.signal.aborted) break;
        this.deps.logger.warn({ err: error }, 'the change stream stopped following the log; it starts again from its head');
      }
      after = null;
      await abortableSleep(this.deps.retryMs ?? 1000, this.abort.signal);
    }
  }

  /**
   * A batch of the log, once applied, as the streams' messages: inside a span when some of its events
   * concern the streams (docs/operations.md#traces), the child of the command that wrote them when
   * one did, else linked to each.
   */
  private async handle(events: readonly RecordedEvent[]): Promise<void> {
    const upTo = events.at(-1)!.position;
    if (!(await this.applied(upTo))) return;
    const changing = events.filter((event) => CHANGES.has(event.type));
    if (changing.length === 0) return void (await this.publish(events, upTo));
    await inSpan(
      'change stream publish',
      { ...batchJoin(changing), attributes: () => ({ 'forum.stream.events': changing.length, 'forum.position.to': positionToken(upTo) }) },
      async (span) => {
        const sent = await this.publish(events, upTo);
        if (span.isRecording()) span.setAttributes({ 'forum.stream.messages': sent.messages, 'forum.stream.deliveries': sent.deliveries });
      },
    );
  }

  /** The batch's messages, to the hub: how many, and how many streams they were written to. */
  private async publish(events: readonly RecordedEvent[], upTo: LogPosition): Promise<{ messages: number; deliveries: number }> {
    const messages: HubMessage[] = [];
    const touched = new Set<string>();
    const gone = new Set<string>();
    const members = new Set<string>();
    const accounts = new Set<string>();
    const closing: string[] = [];
    const fannedOut: bigint[] = [];
    for (const event of events) {
      for (const change of changesOf(event)) {
        if (change.kind === 'message') {
          messages.push({ type: change.type, position: event.position, topics: change.topics, data: change.data });
          if (change.type === 'post-deleted') gone.add(change.data.postId!);
        } else if (change.kind === 'counts') touched.add(change.postId);
        else if (change.kind === 'notifications') members.add(change.memberId);
        else if (change.kind === 'account') accounts.add(change.memberId);
        else if (change.kind === 'fan-out') fannedOut.push(event.position.globalPosition);
        else closing.push(change.memberId);
      }
    }
    const counted = [...touched].filter((id) => !gone.has(id));
    // counts as the read model has them once the batch is in (they may be later still): the batch's last position
    for (const row of counted.length > 0 ? await this.deps.countsOf(counted) : []) {
      const data = { postId: row.id, upVote: row.up_vote, downVote: row.down_vote, commentCount: row.comment_count };
      messages.push({ type: 'post-counts', position: upTo, topics: [postTopic(row.id)], data });
    }
    const listening = fannedOut.length > 0 ? this.deps.hub.membersListening() : [];
    if (listening.length > 0) for (const memberId of await this.deps.reachedBy(fannedOut, listening)) members.add(memberId);
    for (const memberId of members) messages.push({ type: 'notifications', position: upTo, topics: ['me'], memberId, data: {} });
    for (const memberId of accounts) messages.push({ type: 'account', position: upTo, topics: ['me'], memberId, data: {} });
    const deliveries = this.deps.hub.publish(messages, upTo);
    for (const memberId of closing) this.deps.hub.closeMember(memberId);
    return { messages: messages.length, deliveries };
  }

  /** Resolves true once every live projection has applied `position` (false when stopped first): one listener for the whole process. */
  private applied(position: LogPosition): Promise<boolean> {
    const { watcher } = this.deps;
    if (watcher.reached(position)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (reached: boolean) => {
        stop();
        this.abort.signal.removeEventListener('abort', aborted);
        resolve(reached);
      };
      const aborted = () => done(false);
      // the watcher reads the checkpoints again every second: a lost NOTIFY delays, never stalls
      const stop = watcher.onChange(() => {
        if (watcher.reached(position)) done(true);
      });
      this.abort.signal.addEventListener('abort', aborted, { once: true });
    });
  }

  async stop(): Promise<void> {
    this.unwatch();
    this.abort.abort();
    await this.subscription?.stop();
    await this.running;
  }
}
