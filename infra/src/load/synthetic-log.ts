/**
 * A synthetic event log for rebuild benchmarks: the forum's real event types,
 * in the shapes and stream layout the command side writes, in a realistic mix
 * (per 1M events about 10k users, 100k posts, 250k comments, 500k votes, 10k
 * reports, and memberships, deletions, moderation, profile changes, tags,
 * announcements and contact messages around them). Deterministic for a seed.
 *
 * What makes it the product's log rather than random rows:
 * - every stream's versions run 1, 2, 3, … and every event carries EventMetadata
 *   (actor, correlation, causation, request, the definition's current schemaVersion);
 * - one command's events share its metadata and are ordered as the store orders a
 *   multi-stream append (by stream id): creating a post puts PostCreated on
 *   post-<id> and PostAuthored on the author's stream (free members only, as
 *   `decide` does), deleting it PostDeleted and AuthoredPostRemoved;
 * - the command side's rules hold: free members keep at most FREE_POST_LIMIT live
 *   posts, votes are VoteCast on vote-<post>-<user> with `previous` the stream's
 *   current vote, nobody votes on, comments on or reports under a deleted post,
 *   a user reports a comment once, only admins moderate, tags on a post are live tags;
 * - a few members erase their accounts (themselves or an admin), their posts and comments deleted
 *   by the same command when their content goes too, and act no more; a few accounts are disabled
 *   and enabled again by an admin.
 */
import pg from 'pg';
import { v4, v7 } from 'uuid';
import {
  ANONYMOUS_NAME,
  DEFAULT_WARNING_REASON,
  FREE_POST_LIMIT,
  MEMBERSHIP_PRICE,
  PERSONAL_DATA,
  REPORT_FEEDBACK,
  TAGS_STREAM,
  announcementStream,
  commentReportStream,
  commentStream,
  contactMessageStream,
  projectionStream,
  eventDefinitions,
  notificationsStream,
  postStream,
  userStream,
  voteStream,
  type EventMetadata,
  type ForumEventType,
  VOTES,
  type Vote,
} from '@forum/contracts';
import { migrateEventStore } from '@forum/eventstore';

export interface SyntheticEvent {
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: ForumEventType;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
  /** The time of the command (ISO), also the event's recorded_at. */
  readonly recordedAt: string;
}

export interface SyntheticLogOptions {
  /** At least this many events (the last command may add one or two more). */
  readonly events: number;
  readonly seed?: number;
  /** The first command's time; later ones follow it. */
  readonly start?: Date;
}

// ---------------------------------------------------------------------------
// randomness and text

/** mulberry32: small, fast and good enough for picking things. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of to and in is it that for on with as this be are was by not at from or have an they which one you all were her would ' +
  'there their what so up out if about who get go me when make can like time no just him know take people into year your good ' +
  'some could them see other than then now look only come its over think also back after use two how our work first well way even ' +
  'new want because any these give day most us react node typescript postgres docker kubernetes rust python golang css html api ' +
  'database index query cache deploy build test bug fix release version feature design review performance memory thread async ' +
  'promise stream event projection schema migration backup server client browser mobile android ios linux windows macos cloud'
).split(' ');
const FIRST = 'Ada Alan Grace Linus Margaret Dennis Barbara Ken Radia Tim Guido Bjarne Anders Brendan Yukihiro Rob Frances Edsger Donald Leslie Sophie Hedy Katherine Mary Ida'.split(' ');
const LAST = 'Lovelace Turing Hopper Torvalds Hamilton Ritchie Liskov Thompson Perlman Berners-Lee Rossum Stroustrup Hejlsberg Eich Matsumoto Pike Allen Dijkstra Knuth Lamport Wilson Lamarr Johnson Jackson Rhodes'.split(' ');
const SCHEMA_VERSIONS = Object.fromEntries(Object.values(eventDefinitions).map((d) => [d.type, d.schemaVersion])) as Record<ForumEventType, number>;
/** Projections an operator rebuilds now and then (build 1 is the first start's). */
const REBUILT = ['posts', 'users', 'comments', 'audit'];
const TAG_NAMES = ['React', 'Node.js', 'TypeScript', 'PostgreSQL', 'DevOps', 'Career', 'Show and Tell', 'Help', 'Rust', 'Python', 'CSS', 'Security', 'Testing', 'Off-topic', 'Announcements', 'Mobile', 'Cloud', 'Databases', 'AI', 'General'];

// ---------------------------------------------------------------------------
// the simulated forum

interface User {
  readonly n: number;
  readonly id: string;
  readonly email: string;
  name: string;
  photoURL: string;
  version: number;
  registered: boolean;
  admin: boolean;
  member: boolean;
  /** Live posts counted by the free limit (PostAuthored, not yet AuthoredPostRemoved). */
  readonly livePosts: Set<number>;
  notifications: number;
  unread: string[];
  /** Their account was erased: the stream ended, nobody acts as them or on their stream again. */
  erased: boolean;
}

interface Post {
  readonly n: number;
  readonly id: string;
  readonly author: User;
  version: number;
  live: boolean;
  /** Index in `livePosts` while live. */
  slot: number;
  /** Each voter's vote stream (by user number): version * 4 + the current vote's index in VOTES. */
  votes: Map<number, number> | null;
}

interface Comment {
  readonly n: number;
  readonly id: string;
  readonly post: Post;
  readonly author: User;
  live: boolean;
  slot: number;
}

interface Tag {
  readonly id: string;
  readonly name: string;
}

type Kind =
  | 'register'
  | 'post'
  | 'vote'
  | 'comment'
  | 'report'
  | 'deletePost'
  | 'removeComment'
  | 'profile'
  | 'membership'
  | 'warn'
  | 'readWarnings'
  | 'announce'
  | 'contact'
  | 'makeAdmin'
  | 'tag'
  | 'rebuild'
  | 'erase'
  | 'access';

/**
 * Commands of each kind for about `events` events: per 1M about 10k users, 100k posts,
 * 250k comments, 500k votes, 10k reports; the counts are scaled so that the events
 * they make (a post by a free member is two, a membership two) add up to `events`.
 */
function plan(events: number, floors = true): Record<Kind, number> {
  const floor = (n: number, min: number) => (floors ? Math.max(min, Math.round(n)) : Math.round(n));
  const users = events / 100;
  const counts: Record<Kind, number> = {
    register: floor(users, 20),
    post: Math.round(events / 10),
    vote: Math.round(events / 2),
    comment: Math.round(events / 4),
    report: Math.round(events / 100),
    deletePost: Math.round(events / 400),
    removeComment: Math.round(events / 500),
    profile: Math.round(users / 2),
    membership: Math.round(users / 4),
    warn: Math.round(events / 1000),
    readWarnings: Math.round(events / 3000),
    announce: floor(events / 50_000, 3),
    contact: Math.round(events / 2000),
    makeAdmin: floor(events / 250_000, 2),
    tag: floor(events / 500_000, 1),
    rebuild: floor(events / 1_000_000, 1),
    erase: floor(users / 50, 1),
    access: floor(users / 100, 1),
  };
  const perCommand: Partial<Record<Kind, number>> = { post: 1.15, membership: 2, tag: 2, deletePost: 1.5, erase: 6, access: 2 };
  const estimate = (Object.keys(counts) as Kind[]).reduce((sum, kind) => sum + counts[kind] * (perCommand[kind] ?? 1), 0);
  const scale = events / estimate;
  for (const kind of ['post', 'vote', 'comment', 'report', 'deletePost', 'removeComment', 'warn', 'readWarnings', 'contact'] as const) {
    counts[kind] = Math.round(counts[kind] * scale);
  }
  return counts;
}

/** The events of a synthetic forum's history, in log order. */
export function* syntheticLog(options: SyntheticLogOptions): Generator<SyntheticEvent> {
  const rand = prng(options.seed ?? 1);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  /** 16 bytes from the seed: the random bits of an id (one buffer: an id is made of it at once). */
  const random = new Uint8Array(16);
  const seeded = () => {
    for (let i = 0; i < 16; i += 4) {
      const r = (rand() * 4294967296) >>> 0;
      random[i] = r >>> 24;
      random[i + 1] = (r >>> 16) & 255;
      random[i + 2] = (r >>> 8) & 255;
      random[i + 3] = r & 255;
    }
    return random;
  };
  /** A random id (v4), as the identity provider names users and a request is named. */
  const uuid = () => v4({ random: seeded() });
  /** An id as the command service names one (command-service/src/ids.ts): a UUIDv7 of the command's time. */
  const timeId = () => v7({ msecs: clock, random: seeded() });
  const words = (min: number, max: number) => {
    const count = min + int(max - min + 1);
    let text = pick(WORDS);
    for (let i = 1; i < count; i++) text += ' ' + pick(WORDS);
    return text;
  };
  const sentence = (min: number, max: number) => {
    const text = words(min, max);
    return text[0]!.toUpperCase() + text.slice(1);
  };

  const target = options.events;
  const todo = plan(target);
  let remaining = Object.values(todo).reduce((sum, n) => sum + n, 0);
  let emitted = 0;
  let clock = (options.start ?? new Date(Date.UTC(2025, 0, 1))).getTime();
  // about a year of history whatever the size
  const step = Math.max(1, Math.floor((365 * 86_400_000) / Math.max(remaining, 1)));

  const users: User[] = [];
  const registered: User[] = [];
  const members: User[] = [];
  const admins: User[] = [];
  const warned: User[] = [];
  const posts: Post[] = [];
  const livePosts: Post[] = [];
  const comments: Comment[] = [];
  const liveComments: Comment[] = [];
  const tags: Tag[] = [];
  let tagsVersion = 0;
  const builds = new Map<string, number>();
  const reports = new Set<number>();

  const removeFrom = <T extends { slot: number }>(list: T[], item: T) => {
    const last = list.pop()!;
    if (last !== item) {
      list[item.slot] = last;
      last.slot = item.slot;
    }
    item.slot = -1;
  };

  type Append = { streamId: string; version: number; events: { type: ForumEventType; data: Record<string, unknown> }[] };
  /** One command: its appends in the store's lock order (by stream id), one metadata for all. */
  function command(actorId: string, appends: Append[], meta?: Partial<EventMetadata>): SyntheticEvent[] {
    const recordedAt = at;
    tick();
    const requestId = uuid();
    const base = { actorId, correlationId: uuid(), causationId: requestId, requestId, ...meta };
    const out: SyntheticEvent[] = [];
    appends.sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    for (const append of appends) {
      let version = append.version;
      for (const event of append.events) {
        out.push({
          streamId: append.streamId,
          streamVersion: ++version,
          type: event.type,
          data: event.data,
          metadata: { ...base, schemaVersion: SCHEMA_VERSIONS[event.type] },
          recordedAt,
        });
      }
    }
    emitted += out.length;
    return out;
  }
  /** The time of the command being decided (what its events say and record); the next one's after each command. */
  let at = '';
  const tick = () => {
    clock += Math.floor(step * (0.5 + rand()));
    at = new Date(clock).toISOString();
  };
  tick();
  const now = () => at;

  function newUser(): User {
    const n = users.length;
    const first = pick(FIRST);
    const last = pick(LAST);
    const user: User = {
      n,
      id: uuid(),
      email: `${first}.${last}.${n}@example.test`.toLowerCase(),
      name: rand() < 0.02 ? ANONYMOUS_NAME : `${first} ${last}`,
      photoURL: rand() < 0.3 ? '' : `https://images.example.test/avatars/${n}.jpg`,
      version: 0,
      registered: false,
      admin: false,
      member: false,
      livePosts: new Set(),
      notifications: 0,
      unread: [],
      erased: false,
    };
    users.push(user);
    return user;
  }

  /** The user's own stream events of a first request (the actor's registration). */
  function registration(user: User, adminEmails = false): Append['events'] {
    user.registered = true;
    registered.push(user);
    const at = now();
    const events: Append['events'] = [
      { type: 'UserRegistered', data: { userId: user.id, email: user.email, name: user.name, photoURL: user.photoURL, registeredAt: at } },
    ];
    if (adminEmails) {
      events.push({ type: 'AdminRoleGranted', data: { userId: user.id, reason: 'admin-emails', grantedAt: at } });
      user.admin = true;
      admins.push(user);
    }
    return events;
  }

  function userAppend(user: User, events: Append['events']): Append {
    const append = { streamId: userStream(user.id), version: user.version, events };
    user.version += events.length;
    return append;
  }

  function createPost(author: User, pending: Append['events'] = []): SyntheticEvent[] {
    const post: Post = { n: posts.length, id: timeId(), author, version: 1, live: true, slot: livePosts.length, votes: null };
    posts.push(post);
    livePosts.push(post);
    const chosen = new Set<string>();
    const tagCount = int(4);
    for (let i = 0; i < tagCount && tags.length > 0; i++) chosen.add(pick(tags).name);
    const at = now();
    const own = [...pending];
    if (!author.member) {
      own.push({ type: 'PostAuthored', data: { userId: author.id, postId: post.id, at } });
      author.livePosts.add(post.n);
    }
    const appends: Append[] = [
      {
        streamId: postStream(post.id),
        version: 0,
        events: [
          {
            type: 'PostCreated',
            data: {
              postId: post.id,
              title: sentence(3, 12),
              description: sentence(15, 90) + '.',
              tags: [...chosen],
              authorId: author.id,
              authorName: author.name.trim() || ANONYMOUS_NAME,
              authorEmail: author.email,
              authorPhoto: author.photoURL,
              createdAt: at,
            },
          },
        ],
      },
    ];
    if (own.length > 0) appends.push(userAppend(author, own));
    return command(author.id, appends);
  }

  /** A post, recent ones far more often (that is where the votes and comments go). */
  function livePost(): Post | undefined {
    const count = livePosts.length;
    if (count === 0) return undefined;
    const index = rand() < 0.7 ? count - 1 - Math.floor(count * rand() ** 4) : int(count);
    return livePosts[index];
  }

  function actor(): User {
    return pick(registered);
  }

  /** Reduce the plan of a kind that could not run to what can: a registration or a post. */
  const doers: Record<Kind, () => SyntheticEvent[] | null> = {
    register() {
      const user = newUser();
      // a few subjects' first request is a post: their registration rides on its append
      if (rand() < 0.05 && registered.length > 0) return createPost(user, registration(user));
      return command(user.id, [userAppend(user, registration(user))]);
    },
    post() {
      let author: User | undefined;
      if (members.length > 0 && rand() < 0.8) author = pick(members);
      for (let tries = 0; !author && tries < 20; tries++) {
        const candidate = actor();
        if (candidate.member || candidate.livePosts.size < FREE_POST_LIMIT) author = candidate;
      }
      return author ? createPost(author) : null;
    },
    vote() {
      const post = livePost();
      if (!post) return null;
      const voter = actor();
      post.votes ??= new Map();
      const current = post.votes.get(voter.n) ?? 2; // version 0, 'none'
      const previous: Vote = VOTES[current & 3]!;
      const next: Vote =
        previous === 'none' ? (rand() < 0.78 ? 'up' : 'down') : previous === 'up' ? (rand() < 0.6 ? 'none' : 'down') : rand() < 0.6 ? 'none' : 'up';
      const version = current >> 2;
      post.votes.set(voter.n, ((version + 1) << 2) | VOTES.indexOf(next));
      return command(voter.id, [
        { streamId: voteStream(post.id, voter.id), version, events: [{ type: 'VoteCast', data: { postId: post.id, userId: voter.id, previous, vote: next, at: now() } }] },
      ]);
    },
    comment() {
      const post = livePost();
      if (!post) return null;
      const author = actor();
      const comment: Comment = { n: comments.length, id: timeId(), post, author, live: true, slot: liveComments.length };
      comments.push(comment);
      liveComments.push(comment);
      return command(author.id, [
        {
          streamId: commentStream(comment.id),
          version: 0,
          events: [
            {
              type: 'CommentAdded',
              data: {
                commentId: comment.id,
                postId: post.id,
                text: sentence(3, 45),
                authorId: author.id,
                authorName: author.name.trim() || ANONYMOUS_NAME,
                authorEmail: author.email,
                authorPhoto: author.photoURL,
                createdAt: now(),
              },
            },
          ],
        },
      ]);
    },
    report() {
      for (let tries = 0; tries < 20 && liveComments.length > 0; tries++) {
        const comment = pick(liveComments);
        const reporter = actor();
        const key = comment.n * 16_777_216 + reporter.n;
        if (!comment.post.live || reporter === comment.author || reports.has(key)) continue;
        reports.add(key);
        return command(reporter.id, [
          {
            streamId: commentReportStream(comment.id, reporter.id),
            version: 0,
            events: [
              {
                type: 'CommentReported',
                data: {
                  commentId: comment.id,
                  postId: comment.post.id,
                  reporterId: reporter.id,
                  reporterName: reporter.name,
                  reporterEmail: reporter.email,
                  reporterPhoto: reporter.photoURL,
                  feedback: pick(REPORT_FEEDBACK),
                  reportedAt: now(),
                },
              },
            ],
          },
        ]);
      }
      return null;
    },
    deletePost() {
      const post = livePosts.length > 0 ? pick(livePosts) : undefined;
      if (!post || admins.length === 0) return null;
      const by = rand() < 0.85 && !post.author.erased ? post.author : pick(admins);
      post.live = false;
      removeFrom(livePosts, post);
      const at = now();
      const appends: Append[] = [
        { streamId: postStream(post.id), version: post.version, events: [{ type: 'PostDeleted', data: { postId: post.id, authorId: post.author.id, deletedBy: by.id, deletedAt: at } }] },
      ];
      post.version += 1;
      if (post.author.livePosts.delete(post.n) && !post.author.erased) {
        appends.push(userAppend(post.author, [{ type: 'AuthoredPostRemoved', data: { userId: post.author.id, postId: post.id, at } }]));
      }
      return command(by.id, appends);
    },
    removeComment() {
      if (admins.length === 0) return null;
      for (let tries = 0; tries < 20 && liveComments.length > 0; tries++) {
        const comment = pick(liveComments);
        if (!comment.post.live) continue;
        const admin = pick(admins);
        comment.live = false;
        removeFrom(liveComments, comment);
        return command(admin.id, [
          {
            streamId: commentStream(comment.id),
            version: 1,
            events: [
              { type: 'CommentRemoved', data: { commentId: comment.id, postId: comment.post.id, authorId: comment.author.id, removedBy: admin.id, removedAt: now() } },
            ],
          },
        ]);
      }
      return null;
    },
    profile() {
      const user = actor();
      const roll = rand();
      const name = roll < 0.7 ? `${pick(FIRST)} ${pick(LAST)} ${int(1000)}` : undefined;
      const photoURL = roll >= 0.6 ? `https://images.example.test/avatars/${user.n}-${int(1_000_000)}.jpg` : undefined;
      if (name !== undefined) user.name = name;
      if (photoURL !== undefined) user.photoURL = photoURL;
      const data: Record<string, unknown> =
        eventDefinitions.ProfileUpdated.schemaVersion >= 2
          ? { userId: user.id, changes: { ...(name !== undefined && { name }), ...(photoURL !== undefined && { photoURL }) }, updatedAt: now() }
          : { userId: user.id, name: user.name, photoURL: user.photoURL, updatedAt: now() };
      return command(user.id, [userAppend(user, [{ type: 'ProfileUpdated', data }])]);
    },
    membership() {
      for (let tries = 0; tries < 20; tries++) {
        const user = actor();
        if (user.member) continue;
        const attemptId = timeId();
        const { amountCents, currency } = MEMBERSHIP_PRICE;
        const started = command(user.id, [
          userAppend(user, [{ type: 'MembershipPurchaseStarted', data: { userId: user.id, attemptId, amountCents, currency, startedAt: now() } }]),
        ]);
        // the outcome is a second transaction, after the charge
        const ok = rand() < 0.95;
        const outcome = command(user.id, [
          userAppend(user, [
            ok
              ? { type: 'MembershipPurchased', data: { userId: user.id, attemptId, paymentReference: `demo_${uuid()}`, amountCents, currency, purchasedAt: now() } }
              : { type: 'MembershipPurchaseFailed', data: { userId: user.id, attemptId, reason: 'card_declined', failedAt: now() } },
          ]),
        ]);
        if (ok) {
          user.member = true;
          members.push(user);
        }
        return [...started, ...outcome];
      }
      return null;
    },
    warn() {
      if (admins.length === 0 || comments.length === 0) return null;
      const comment = pick(comments);
      const target = comment.author;
      if (target.erased) return null;
      const admin = pick(admins);
      const warningId = timeId();
      const reason = rand() < 0.5 ? DEFAULT_WARNING_REASON : sentence(4, 20);
      const append: Append = {
        streamId: notificationsStream(target.id),
        version: target.notifications,
        events: [
          {
            type: 'UserWarned',
            data: {
              warningId,
              userId: target.id,
              reason,
              // as the forum writes a warning about a comment: its post and a quote of it
              ...(rand() < 0.7 && { commentId: comment.id, postId: comment.post.id, commentQuote: sentence(3, 12) }),
              warnedBy: admin.id,
              warnedAt: now(),
            },
          },
        ],
      };
      target.notifications += 1;
      if (target.unread.length === 0) warned.push(target);
      target.unread.push(warningId);
      return command(admin.id, [append]);
    },
    readWarnings() {
      if (warned.length === 0) return null;
      const index = int(warned.length);
      const user = warned[index]!;
      warned[index] = warned.at(-1)!;
      warned.pop();
      const warningIds = user.unread;
      user.unread = [];
      const append: Append = { streamId: notificationsStream(user.id), version: user.notifications, events: [{ type: 'WarningsRead', data: { userId: user.id, warningIds, readAt: now() } }] };
      user.notifications += 1;
      return command(user.id, [append]);
    },
    announce() {
      if (admins.length === 0) return null;
      const admin = pick(admins);
      const announcementId = timeId();
      return command(admin.id, [
        {
          streamId: announcementStream(announcementId),
          version: 0,
          events: [
            {
              type: 'AnnouncementPublished',
              data: {
                announcementId,
                title: sentence(3, 8),
                description: sentence(20, 60) + '.',
                authorId: admin.id,
                authorName: admin.name.trim() || ANONYMOUS_NAME,
                authorPhoto: admin.photoURL,
                publishedAt: now(),
              },
            },
          ],
        },
      ]);
    },
    contact() {
      const messageId = timeId();
      return command('anonymous', [
        {
          streamId: contactMessageStream(messageId),
          version: 0,
          events: [
            {
              type: 'ContactMessageReceived',
              data: { messageId, name: `${pick(FIRST)} ${pick(LAST)}`, email: `visitor${int(100_000)}@example.test`, message: sentence(5, 60), receivedAt: now() },
            },
          ],
        },
      ]);
    },
    makeAdmin() {
      if (admins.length === 0) return null;
      const user = actor();
      if (user.admin) return null;
      user.admin = true;
      admins.push(user);
      // the operator CLI now and then, an admin in the console otherwise
      if (rand() < 0.3) {
        return command('operator:root', [userAppend(user, [{ type: 'AdminRoleGranted', data: { userId: user.id, reason: 'operator', grantedAt: now() } }])], {
          correlationId: `forumctl-${clock}`,
          causationId: null,
          requestId: null,
        });
      }
      return command(pick(admins).id, [userAppend(user, [{ type: 'AdminRoleGranted', data: { userId: user.id, reason: 'admin', grantedAt: now() } }])]);
    },
    rebuild() {
      // an admin in the console or the operator CLI asks for a projection rebuild
      const name = pick(REBUILT);
      const build = (builds.get(name) ?? 1) + 1;
      builds.set(name, build);
      const operator = rand() < 0.5 || admins.length === 0;
      const append: Append = {
        streamId: projectionStream(name),
        version: build - 2,
        events: [{ type: 'ProjectionRebuildRequested', data: { projection: name, version: 1, build, resumed: false, requestedAt: now() } }],
      };
      return operator
        ? command('operator:root', [append], { correlationId: `forumctl-${clock}`, causationId: null, requestId: null })
        : command(pick(admins).id, [append]);
    },
    erase() {
      // a member (not an admin, and not while the community is small) erases their account, or an admin does
      const user = actor();
      if (user.admin || registered.length < 60 || admins.length === 0) return null;
      const by = rand() < 0.3 ? pick(admins) : user;
      const content = rand() < 0.5 ? 'kept' : 'erased';
      const at = now();
      const appends: Append[] = [];
      if (content === 'erased') {
        // their posts and their comments on others' posts, as the read models list them (those on their posts go with them)
        for (const post of livePosts.filter((p) => p.author === user)) {
          appends.push({ streamId: postStream(post.id), version: post.version, events: [{ type: 'PostDeleted', data: { postId: post.id, authorId: user.id, deletedBy: by.id, deletedAt: at } }] });
          post.version += 1;
          post.live = false;
          removeFrom(livePosts, post);
        }
        for (const comment of liveComments.filter((c) => c.author === user && c.post.live && c.post.author !== user)) {
          appends.push({
            streamId: commentStream(comment.id),
            version: 1,
            events: [{ type: 'CommentRemoved', data: { commentId: comment.id, postId: comment.post.id, authorId: user.id, removedBy: by.id, removedAt: at } }],
          });
          comment.live = false;
          removeFrom(liveComments, comment);
        }
      }
      appends.push(userAppend(user, [{ type: 'AccountErased', data: { userId: user.id, content, erasedAt: at } }]));
      user.erased = true;
      registered.splice(registered.indexOf(user), 1);
      if (user.member) members.splice(members.indexOf(user), 1);
      if (warned.includes(user)) warned.splice(warned.indexOf(user), 1);
      return command(by.id, appends);
    },
    access() {
      // an admin disables an account in the identity realm, and enables it again later
      const user = actor();
      if (user.admin || admins.length === 0) return null;
      const admin = pick(admins);
      const disabled = command(admin.id, [userAppend(user, [{ type: 'AccountDisabled', data: { userId: user.id, disabledAt: now() } }])]);
      const enabled = command(admin.id, [userAppend(user, [{ type: 'AccountEnabled', data: { userId: user.id, enabledAt: now() } }])]);
      return [...disabled, ...enabled];
    },
    tag() {
      // an admin retires a tag and creates another: posts keep the old text
      if (admins.length === 0 || tags.length < 2) return null;
      const admin = pick(admins);
      const index = int(tags.length);
      const gone = tags[index]!;
      tags.splice(index, 1);
      const deleted = command(admin.id, [{ streamId: TAGS_STREAM, version: tagsVersion, events: [{ type: 'TagDeleted', data: { tagId: gone.id, name: gone.name, deletedAt: now() } }] }]);
      tagsVersion += 1;
      const tag = { id: timeId(), name: `${gone.name} ${tagsVersion}` };
      tags.push(tag);
      const created = command(admin.id, [{ streamId: TAGS_STREAM, version: tagsVersion, events: [{ type: 'TagCreated', data: { tagId: tag.id, name: tag.name, createdAt: now() } }] }]);
      tagsVersion += 1;
      return [...deleted, ...created];
    },
  };

  // The forum opens: the first admin (ADMIN_EMAILS) signs in and creates the tags
  const founder = newUser();
  yield* command(founder.id, [userAppend(founder, registration(founder, true))]);
  todo.register -= 1;
  remaining -= 1;
  for (const name of TAG_NAMES) {
    const tag = { id: timeId(), name };
    tags.push(tag);
    yield* command(founder.id, [{ streamId: TAGS_STREAM, version: tagsVersion, events: [{ type: 'TagCreated', data: { tagId: tag.id, name, createdAt: now() } }] }]);
    tagsVersion += 1;
  }

  // Then commands in a random order drawn from the plan (without replacement, so the mix
  // holds at any size), each kind with what exists by then; a command that finds nothing
  // to act on yet (no post to vote on) becomes a registration or a post instead.
  const kinds = Object.keys(todo) as Kind[];
  while (emitted < target) {
    if (remaining === 0) {
      // the estimate fell short: a small plan for the rest, in the same proportions
      const rest = plan(target - emitted, false);
      Object.assign(todo, rest);
      remaining = Object.values(rest).reduce((sum, n) => sum + n, 0);
    }
    let kind: Kind = 'post';
    if (remaining > 0) {
      let roll = int(remaining);
      for (const k of kinds) {
        roll -= todo[k];
        if (roll < 0) {
          kind = k;
          break;
        }
      }
      todo[kind] -= 1;
      remaining -= 1;
    }
    // the first few hundred commands build up a community before anything else
    if (registered.length < 50 && kind !== 'register') kind = 'register';
    else if (livePosts.length < 20 && kind !== 'register' && kind !== 'post') kind = 'post';
    const out = doers[kind]() ?? doers.post() ?? doers.register()!;
    yield* out;
  }
}

// ---------------------------------------------------------------------------
// bulk loading

export interface LoadOptions extends SyntheticLogOptions {
  /** Events per INSERT statement. */
  readonly statementRows?: number;
  /** Events per transaction: the log gets several transaction ids, as a real one has many. */
  readonly transactionRows?: number;
  /** Connections inserting at once (each its own transactions). */
  readonly connections?: number;
  readonly onProgress?: (loaded: number) => void;
}

export interface LoadResult {
  readonly events: number;
  readonly byType: Record<string, number>;
  readonly streams: number;
  readonly ms: number;
}

// One JSON text per statement: cheaper to send and parse than seven array parameters
// (arrays of JSON strings are escaped twice over)
const INSERT_EVENTS = `INSERT INTO eventstore.events (global_position, stream_id, stream_version, type, data, metadata, recorded_at)
  OVERRIDING SYSTEM VALUE
  SELECT p, s, v, t, d, m, r FROM json_to_recordset($1::json) AS x(p bigint, s text, v integer, t text, d jsonb, m jsonb, r timestamptz)`;

/**
 * Generates the synthetic log and loads it into an EMPTY event store (creating
 * its tables if needed) in multi-row INSERTs of `statementRows` events, committed
 * every `transactionRows`; then the streams' versions and the position sequence.
 *
 * Transaction k takes positions [k * transactionRows, …) and runs on connection
 * k mod `connections`, so the database inserts on two connections while this
 * process generates the next rows. Log order is (transaction id, position):
 * each transaction takes its id before the next one begins, so that order is
 * the positions' order, as it would be for commands that ran one after another.
 * A failure leaves the transactions committed before it (an empty store is the
 * only thing it loads into, so start over on a fresh one).
 */
export async function loadSyntheticLog(connectionString: string, options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  const statementRows = options.statementRows ?? 5000;
  const transactionRows = Math.max(options.transactionRows ?? 50_000, statementRows);
  const connections = Math.max(1, options.connections ?? 2);
  const pool = new pg.Pool({ connectionString, max: connections + 1, application_name: 'forum-synthetic-log' });
  pool.on('error', () => {});
  const lanes: pg.PoolClient[] = [];
  try {
    await migrateEventStore(pool);
    for (let i = 0; i < connections; i++) lanes.push(await pool.connect());
    const client = lanes[0]!;
    const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM eventstore.events) AS any');
    if (rows[0]!.any) throw new Error('The event store is not empty: the synthetic log only loads into an empty store');

    // per connection: its statements chained one after another, and how many are waiting
    const chains: Promise<unknown>[] = lanes.map(() => Promise.resolve());
    const waiting = lanes.map(() => 0);
    const send = (lane: number, sql: string, params?: unknown[]) => {
      waiting[lane]! += 1;
      const query = chains[lane]!.then(() => lanes[lane]!.query(sql, params)).finally(() => (waiting[lane]! -= 1));
      query.catch(() => {}); // awaited by settle; this only keeps a failure from going unhandled meanwhile
      chains[lane] = query;
    };
    /** Until at most `keep` statements of the connection wait (0: all answered; a failure throws here). */
    const settle = async (lane: number, keep: number) => {
      while (waiting[lane]! > keep) await Promise.race([chains[lane], new Promise((resolve) => setTimeout(resolve, 1))]);
      if (keep === 0) await chains[lane];
    };

    // Each statement's members' keys are made first, committed on a connection of their own: the
    // lanes' long transactions would otherwise make them in each other's way (and deadlock)
    const keyMaker = await pool.connect();
    lanes.push(keyMaker);
    let subjects = new Set<string>();
    const makeKeys = async () => {
      if (subjects.size === 0) return;
      const wanted = [...subjects];
      subjects = new Set();
      await keyMaker.query('SELECT count(keystore.keys_for(s)) FROM unnest($1::text[]) AS s', [wanted]);
    };

    const byType: Record<string, number> = {};
    let count = 0;
    let transaction = -1;
    let inTransaction = 0;
    let rowsJson: string[] = [];
    const flush = async () => {
      if (rowsJson.length === 0) return;
      const rows = rowsJson.length;
      const param = '[' + rowsJson.join(',') + ']';
      rowsJson = [];
      if (inTransaction === 0) {
        transaction += 1;
        const lane = transaction % connections;
        await settle(lane, 0); // its previous transaction has committed
        await lanes[lane]!.query('BEGIN');
        await lanes[lane]!.query('SELECT pg_current_xact_id()'); // takes its id now, after the previous transaction's
      }
      const lane = transaction % connections;
      await settle(lane, 1);
      await makeKeys();
      send(lane, INSERT_EVENTS, [param]);
      inTransaction += rows;
      if (inTransaction >= transactionRows) {
        send(lane, 'COMMIT');
        inTransaction = 0;
      }
    };
    try {
      for (const event of syntheticLog(options)) {
        count += 1;
        byType[event.type] = (byType[event.type] ?? 0) + 1;
        const personal = PERSONAL_DATA[`${event.type}@${event.metadata.schemaVersion}`];
        if (personal) subjects.add(String(event.data[personal.subject]));
        // stream ids and types are the generator's own (uuids and fixed names): nothing to escape
        rowsJson.push(
          `{"p":${count},"s":"${event.streamId}","v":${event.streamVersion},"t":"${event.type}","d":${JSON.stringify(event.data)},"m":${JSON.stringify(event.metadata)},"r":"${event.recordedAt}"}`,
        );
        if (rowsJson.length >= statementRows) {
          await flush();
          options.onProgress?.(count);
        }
      }
      await flush();
      if (inTransaction > 0) send(transaction % connections, 'COMMIT');
      for (let lane = 0; lane < connections; lane++) await settle(lane, 0);
    } catch (error) {
      for (let lane = 0; lane < connections; lane++) {
        await chains[lane]!.catch(() => {});
        await lanes[lane]!.query('ROLLBACK').catch(() => {});
      }
      throw error;
    }
    // in key order, so the streams' primary key is built by appending rather than by random inserts
    const streams = await client.query(
      `INSERT INTO eventstore.streams (stream_id, version) SELECT stream_id, max(stream_version) FROM eventstore.events GROUP BY stream_id ORDER BY stream_id`,
    );
    await client.query(`SELECT setval(pg_get_serial_sequence('eventstore.events', 'global_position'), GREATEST((SELECT max(global_position) FROM eventstore.events), 1))`);
    await client.query('ANALYZE eventstore.events');
    return { events: count, byType, streams: streams.rowCount ?? 0, ms: Math.round(performance.now() - started) };
  } finally {
    for (const lane of lanes) lane.release();
    await pool.end();
  }
}
