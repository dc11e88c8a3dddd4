import {
  DomainError,
  eventMetadata,
  evolveFollows,
  evolveHandle,
  evolveNotifications,
  evolveTags,
  evolveUser,
  handleKey,
  initialFollowsState,
  initialHandleState,
  initialNotificationsState,
  initialTagsState,
  initialUserState,
  evolvePins,
  initialPinsState,
  operatorMeta,
  refuseSuspended,
  suspensionAt,
  type PinsState,
  type AnnouncementState,
  type CommandMeta,
  type CommentState,
  type FollowsState,
  type HandleState,
  type NotificationsState,
  type PostState,
  type ProjectionState,
  type ReportState,
  type TagsState,
  type UserState,
} from '@forum/command-service';
import {
  eventDefinitions,
  foldHandle,
  followsStream,
  handleStream,
  notificationsStream,
  PINS_STREAM,
  TAGS_STREAM,
  userStream,
  type EventMetadata,
  type ForumEvent,
  type ForumEventType,
} from '@forum/contracts';
import type { Randomness } from './randomness.ts';

export interface SyntheticEvent {
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: ForumEventType;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
  /** The time of the command (ISO), also the event's recorded_at. */
  readonly recordedAt: string;
}

/** A stream as the command side loads it: the state its events evolve to, and their count. */
export interface KeptStream<State> {
  readonly id: string;
  state: State;
  version: number;
  readonly evolve: (state: State, event: never) => State;
}

export const keptStream = <State>(id: string, initial: State, evolve: (state: State, event: never) => State): KeptStream<State> => ({
  id,
  state: initial,
  version: 0,
  evolve,
});

/** A decider's events for one stream. */
export interface Decided {
  readonly stream: KeptStream<unknown>;
  readonly events: readonly ForumEvent[];
}
export const decided = <State>(stream: KeptStream<State>, events: readonly ForumEvent[]): Decided => ({ stream: stream as KeptStream<unknown>, events });

export interface User {
  readonly n: number;
  readonly id: string;
  readonly stream: KeptStream<UserState>;
  /** Made when they are first warned or first choose how notifications reach them. */
  notifications: KeptStream<NotificationsState> | null;
  /** Made when they first follow or unfollow something. */
  follows: KeptStream<FollowsState> | null;
}

export interface Post {
  readonly n: number;
  readonly id: string;
  readonly author: User;
  readonly stream: KeptStream<PostState>;
  /** Index in `livePosts` while live. */
  slot: number;
  /**
   * Each voter's vote stream (by user number), kept in one number, version * 4 + the index of its
   * state's vote in VOTES: a log of millions of votes keeps millions of them.
   */
  votes: Map<number, number> | null;
  /** Who commented on it last (whom a comment's @mention names more often than anyone). */
  lastCommenter: User | null;
}

export interface Comment {
  readonly n: number;
  readonly id: string;
  readonly post: Post;
  readonly author: User;
  readonly stream: KeptStream<CommentState>;
  /** Index in `liveComments` while live. */
  slot: number;
}

/** The writes a suspended member may not make (issue #43): their posts, comments, votes, reports and profile. */
const SUSPENDED_WRITES: ReadonlySet<string> = new Set([
  'PostCreated',
  'PostEdited',
  'PostDeleted',
  'CommentAdded',
  'CommentEdited',
  'VoteCast',
  'CommentReported',
  'PostReported',
  'ProfileUpdated',
  'HandleChanged',
]);

export const registeredState = (user: User) => (user.stream.state.status === 'registered' ? user.stream.state : null);

/**
 * The forum being simulated: the streams its commands decide on, kept by evolving the events
 * written to them, the clock, and lists to pick actors and targets from (which user acts on
 * which post is the simulation's choice; whether it may is the deciders').
 */
export function simulatedForum(random: Randomness, start: Date, step: number) {
  let clock = start.getTime();
  let lastWrite = clock;
  let written = 0;
  const tick = () => (clock += Math.floor(step * (0.5 + random.rand())));
  tick();
  const byId = new Map<string, User>();
  const forum = {
    random,
    users: [] as User[],
    registered: [] as User[],
    members: [] as User[],
    admins: [] as User[],
    /** Members an admin made moderators (and has not taken it back). */
    moderators: [] as User[],
    /** Members staff suspended (their suspension may have ended by the clock or been lifted since). */
    suspended: [] as User[],
    /** Posts and comments staff hid (out of the live lists while hidden: members cannot act on them). */
    hiddenPosts: [] as Post[],
    hiddenComments: [] as Comment[],
    /** Posts staff locked (members' comments on them are refused). */
    lockedPosts: [] as Post[],
    /** Posts of members erased with their content kept (by 'Deleted user'). */
    leftByErased: [] as Post[],
    /** Posts members reported (what staff dismiss, hide or delete). */
    reportedPosts: [] as Post[],
    pins: keptStream<PinsState>(PINS_STREAM, initialPinsState, evolvePins),
    /** Users with warnings they have not read. */
    warned: [] as User[],
    /** Users who follow a tag (or did: a tag they follow may have been deleted since). */
    tagFollowers: [] as User[],
    /** The handles' streams (by folded handle) that have events. */
    handles: new Map<string, KeptStream<HandleState>>(),
    posts: [] as Post[],
    livePosts: [] as Post[],
    comments: [] as Comment[],
    liveComments: [] as Comment[],
    tags: keptStream<TagsState>(TAGS_STREAM, initialTagsState, evolveTags),
    /** Published announcements, oldest first. */
    announcements: [] as KeptStream<AnnouncementState>[],
    projections: new Map<string, { stream: KeptStream<ProjectionState>; build: number }>(),
    /** One report stream per (comment, reporter), by comment number * 2^24 + reporter number. */
    reports: new Map<number, KeptStream<ReportState>>(),
    /** One report stream per (post, reporter), keyed as `reports`. */
    postReports: new Map<number, KeptStream<ReportState>>(),
    /** The time of the next command (ms). */
    get clock() {
      return clock;
    },
    /** Events written so far. */
    get written() {
      return written;
    },

    /** The next command comes `seconds` after the last one written (sooner or later than it would have come). */
    later(seconds: number) {
      clock = lastWrite + seconds * 1000;
    },
    /** The metadata of a request by `actorId` now (ids drawn from the seed). */
    meta(actorId: string): CommandMeta {
      const requestId = random.uuid();
      return { actorId, now: new Date(clock), correlationId: random.uuid(), causationId: requestId, requestId };
    },
    /** The metadata of a command the operator CLI gives now. */
    operatorMeta: (): CommandMeta => operatorMeta('operator:root', 'forumctl', new Date(clock)),
    /** An id the command service names now. */
    timeId: () => random.timeId(clock),

    /**
     * One command's decisions, written: its appends in the store's lock order (by stream id), one
     * metadata for all, and each stream's state evolved by its events. Null when it decides nothing.
     */
    write(meta: CommandMeta, decisions: readonly Decided[]): SyntheticEvent[] | null {
      const recordedAt = meta.now.toISOString();
      // a suspended member's writes are refused before anything is decided (MEMBER_SUSPENDED, a DomainError)
      const types = decisions.flatMap((d) => d.events.map((event) => event.type));
      if (types.some((type) => SUSPENDED_WRITES.has(type)) && !types.includes('AccountErased')) {
        const actor = byId.get(meta.actorId);
        if (actor) refuseSuspended(actor.stream.state, meta.now);
      }
      const out: SyntheticEvent[] = [];
      const ordered = decisions.filter((d) => d.events.length > 0).sort((a, b) => (a.stream.id < b.stream.id ? -1 : a.stream.id > b.stream.id ? 1 : 0));
      for (const { stream, events } of ordered) {
        for (const event of events) {
          stream.state = stream.evolve(stream.state, event as never);
          stream.version += 1;
          out.push({
            streamId: stream.id,
            streamVersion: stream.version,
            type: event.type,
            data: event.data,
            metadata: eventMetadata(meta, eventDefinitions[event.type].schemaVersion),
            recordedAt,
          });
        }
      }
      if (out.length === 0) return null;
      written += out.length;
      lastWrite = meta.now.getTime();
      tick();
      return out;
    },

    /** `command()`'s events, or null when a decider refuses it (the forum would answer 4xx and write nothing). */
    attempt(command: () => SyntheticEvent[] | null): SyntheticEvent[] | null {
      try {
        return command();
      } catch (error) {
        if (error instanceof DomainError) return null;
        throw error;
      }
    },

    newUser(): User {
      const id = random.uuid();
      const user: User = {
        n: forum.users.length,
        id,
        stream: keptStream(userStream(id), initialUserState, evolveUser),
        notifications: null,
        follows: null,
      };
      forum.users.push(user);
      byId.set(id, user);
      return user;
    },
    notificationsOf(user: User): KeptStream<NotificationsState> {
      return (user.notifications ??= keptStream(notificationsStream(user.id), initialNotificationsState, evolveNotifications));
    },
    followsOf(user: User): KeptStream<FollowsState> {
      return (user.follows ??= keptStream(followsStream(user.id), initialFollowsState, evolveFollows));
    },
    /** Who holds `handle` (ignoring case) now. */
    holderOf: (handle: string): string | null => forum.handles.get(foldHandle(handle))?.state.holder ?? null,
    /** `handle`'s stream (the same for every spelling of it), kept from now on. */
    handleStreamOf(handle: string): KeptStream<HandleState> {
      const folded = foldHandle(handle);
      let stream = forum.handles.get(folded);
      if (!stream) forum.handles.set(folded, (stream = keptStream(handleStream(handleKey(handle)), initialHandleState, evolveHandle)));
      return stream;
    },
    /** A registered user who may act (not erased; not suspended, most of the time). */
    actor(): User {
      let user = random.pick(forum.registered);
      for (let tries = 0; tries < 5 && suspensionAt(user.stream.state, new Date(clock)) !== null; tries++) user = random.pick(forum.registered);
      return user;
    },
    /** Whether `user` is suspended now. */
    isSuspended: (user: User) => suspensionAt(user.stream.state, new Date(clock)) !== null,
    /** A live post, recent ones far more often (that is where the votes and comments go). */
    livePost(): Post | undefined {
      const count = forum.livePosts.length;
      if (count === 0) return undefined;
      const index = random.rand() < 0.7 ? count - 1 - Math.floor(count * random.rand() ** 4) : random.int(count);
      return forum.livePosts[index];
    },
    /** Takes a post out of the live list once it is deleted, a comment once it is removed. */
    unlist<T extends { slot: number }>(list: T[], item: T) {
      if (item.slot < 0) return;
      const last = list.pop()!;
      if (last !== item) {
        list[item.slot] = last;
        last.slot = item.slot;
      }
      item.slot = -1;
    },
  };
  return forum;
}

export type SimulatedForum = ReturnType<typeof simulatedForum>;
