import fc from 'fast-check';
import {
  AccountErased,
  CommentAdded,
  CommentEdited,
  commentReportStream,
  CommentRemoved,
  CommentReported,
  commentStream,
  currentSchemaVersion,
  ERASED_CONTENT,
  CommentHidden,
  CommentUnhidden,
  PINNED_MAX,
  PINS_STREAM,
  PostCreated,
  PostHidden,
  PostLocked,
  PostPinned,
  PostReported,
  postReportStream,
  PostUnhidden,
  PostUnlocked,
  PostUnpinned,
  ReportsDismissed,
  PostDeleted,
  PostEdited,
  postStream,
  ProfileUpdated,
  ProfileUpdatedV1,
  REPORT_FEEDBACK,
  UserRegistered,
  userStream,
  VoteCast,
  VOTES,
  voteStream,
  type Vote,
} from '@forum/contracts';
import type { NewEvent, StreamAppend } from '@forum/eventstore';
import { FIXED_NOW, testEventMetadata, uuidOf } from '@forum/platform/testing';
import type { z } from 'zod';

/**
 * What someone tries, as fast-check draws it: numbers pick among the people, posts and comments
 * there are by then (modulo their count), and `forumLog` keeps only what the command side accepts.
 * `raced`: a vote, comment or report that was decided before its post's deletion or its comment's
 * removal and appended after it (the command side checks them on streams of their own).
 * `editPost`, `editComment`: by the author, or by an admin (always a new revision, with a reason);
 * an author's edit folds into the current revision when `fold` (within the grace period).
 * `moderate`: staff hide or show again a post or comment, lock or unlock a post, pin or unpin one
 * (at most PINNED_MAX), or dismiss an item's reports (issue #43), and with `undo` undo it at once
 * (the undoing steps pick among what is marked: that way they come up often enough); `reportPost`: a member reports a post.
 * `read`: a live build reads what has been appended so far.
 */
export type Step =
  | { readonly kind: 'post'; readonly user: number; readonly title: number; readonly tags: readonly string[] }
  | { readonly kind: 'vote'; readonly user: number; readonly post: number; readonly vote: Vote; readonly raced: boolean }
  | { readonly kind: 'comment'; readonly user: number; readonly post: number; readonly raced: boolean }
  | { readonly kind: 'report'; readonly user: number; readonly comment: number; readonly raced: boolean }
  | {
      readonly kind: 'editPost';
      readonly post: number;
      readonly byAdmin: boolean;
      readonly fold: boolean;
      readonly title: number;
      readonly tags: readonly string[];
    }
  | { readonly kind: 'editComment'; readonly comment: number; readonly byAdmin: boolean; readonly fold: boolean }
  | { readonly kind: 'removeComment'; readonly comment: number }
  | { readonly kind: 'deletePost'; readonly post: number; readonly byAdmin: boolean }
  | { readonly kind: 'profile'; readonly user: number; readonly name?: string; readonly photoURL?: string; readonly v1: boolean }
  | { readonly kind: 'erase'; readonly user: number; readonly content: (typeof ERASED_CONTENT)[number] }
  | { readonly kind: 'reportPost'; readonly user: number; readonly post: number; readonly raced: boolean }
  | { readonly kind: 'moderate'; readonly action: ModerationStep; readonly item: number; readonly reason: number; readonly undo: boolean }
  | { readonly kind: 'read' };

/** Staff's actions, in pairs that undo each other (each drawn as often: an undo needs its action before it), and dismissals. */
const MODERATION_PAIRS = [
  ['hidePost', 'unhidePost'],
  ['lock', 'unlock'],
  ['pin', 'unpin'],
  ['hideComment', 'unhideComment'],
  ['dismissPost', 'dismissComment'],
] as const;
type ModerationStep = (typeof MODERATION_PAIRS)[number][number];

const PEOPLE = 4;
const TITLES = ['Hello world', 'React hooks, again', 'Node.js streams', 'Zoë’s café', 'What is CQRS?'];
const NAMES = ['Ann', 'Ann B.', 'Ben', 'Zoë', 'Cy Q.'];
const PHOTOS = ['', 'https://photos.test/a.png', 'https://photos.test/b.png'];

const person = fc.nat({ max: PEOPLE - 1 });
const pick = fc.nat({ max: 50 });

/** One step; votes, comments and reads weigh most, as in a forum. */
export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('post' as const),
      user: person,
      title: fc.nat({ max: TITLES.length - 1 }),
      tags: fc.subarray(['React', 'Node.js', 'news']),
    }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('vote' as const), user: person, post: pick, vote: fc.constantFrom(...VOTES), raced: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('comment' as const), user: person, post: pick, raced: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('report' as const), user: person, comment: pick, raced: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('editPost' as const),
      post: pick,
      byAdmin: fc.boolean(),
      fold: fc.boolean(),
      title: fc.nat({ max: TITLES.length - 1 }),
      tags: fc.subarray(['react', 'Node.js', 'news', 'Zoë']),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('editComment' as const), comment: pick, byAdmin: fc.boolean(), fold: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeComment' as const), comment: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deletePost' as const), post: pick, byAdmin: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record(
      { kind: fc.constant('profile' as const), user: person, name: fc.constantFrom(...NAMES), photoURL: fc.constantFrom(...PHOTOS), v1: fc.boolean() },
      { requiredKeys: ['kind', 'user', 'v1'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('erase' as const), user: person, content: fc.constantFrom(...ERASED_CONTENT) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reportPost' as const), user: person, post: pick, raced: fc.boolean() }) },
  ...MODERATION_PAIRS.map((pair) => ({
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('moderate' as const),
      action: fc.constantFrom(...pair),
      item: pick,
      reason: fc.nat({ max: 2 }),
      undo: fc.boolean(),
    }),
  })),
  { weight: 3, arbitrary: fc.constant({ kind: 'read' as const }) },
);

/** What the log holds, in order: each append (one command's events, in one transaction), or a live build's read. */
export type LogEntry = { readonly appends: readonly StreamAppend[] } | 'read';

interface Post {
  readonly id: string;
  readonly author: string;
  deleted: boolean;
  hidden?: string;
  locked?: boolean;
  pinned?: boolean;
  /** Its current visible revision. */
  revision: number;
}
interface Comment {
  readonly id: string;
  readonly post: Post;
  readonly author: string;
  removed: boolean;
  revision: number;
  hidden?: string;
}

/**
 * The log a run of `steps` writes, with ids of its own (`run` keeps runs apart in one log: posts
 * and comments are numbered from `run` × 10,000, people are `r<run>-u<i>`). Every event is
 * parsed by its contract's schema. People register before they act; an erasure whose content
 * goes deletes their posts and removes their comments in its own append, as the command side does.
 */
export function forumLog(steps: readonly Step[], run: number): LogEntry[] {
  let seconds = 0;
  let ids = run * 10_000;
  const at = () => new Date(Date.parse(FIXED_NOW) + 1000 * seconds++).toISOString();
  const people = Array.from({ length: PEOPLE }, (_, i) => ({ id: `r${run}-u${i}`, name: NAMES[i]!, email: `u${i}@forum.test`, photo: '', erased: false }));
  const posts: Post[] = [];
  const comments: Comment[] = [];
  const votes = new Map<string, Vote>();
  const reports = new Set<string>();
  const log: LogEntry[] = [];

  const event = <S extends z.ZodType>(
    definition: { type: string; schema: S },
    data: z.input<S>,
    actorId: string,
    schemaVersion = currentSchemaVersion(definition.type),
  ): NewEvent => ({
    type: definition.type,
    data: definition.schema.parse(data),
    metadata: testEventMetadata({ actorId, schemaVersion }),
  });
  const append = (...appends: [streamId: string, event: NewEvent][]) =>
    log.push({ appends: appends.map(([streamId, e]) => ({ streamId, expectedVersion: 'any', events: [e] })) });

  for (const p of people) {
    append([userStream(p.id), event(UserRegistered, { userId: p.id, email: p.email, name: p.name, photoURL: p.photo, registeredAt: at() }, p.id)]);
  }
  const among = <T>(items: readonly T[], n: number): T | undefined => items[n % Math.max(items.length, 1)];

  for (const step of steps) {
    if (step.kind === 'read') {
      log.push('read');
      continue;
    }
    if (step.kind === 'removeComment') {
      const comment = among(
        comments.filter((c) => !c.removed),
        step.comment,
      );
      if (!comment) continue;
      comment.removed = true;
      append([
        commentStream(comment.id),
        event(CommentRemoved, { commentId: comment.id, postId: comment.post.id, authorId: comment.author, removedBy: 'admin', removedAt: at() }, 'admin'),
      ]);
      continue;
    }
    if (step.kind === 'moderate') {
      moderate(step);
      const pair = MODERATION_PAIRS.find(([action]) => action === step.action);
      if (step.undo && pair && step.action !== 'dismissPost') moderate({ ...step, action: pair[1], item: 0 });
      continue;
    }
    if (step.kind === 'editPost' || step.kind === 'editComment') {
      const post =
        step.kind === 'editPost'
          ? among(
              posts.filter((p) => !p.deleted),
              step.post,
            )
          : undefined;
      const comment =
        step.kind === 'editComment'
          ? among(
              comments.filter((c) => !c.removed && !c.post.deleted),
              step.comment,
            )
          : undefined;
      const content = post ?? comment;
      if (!content || (!step.byAdmin && people.find((p) => p.id === content.author)!.erased)) continue;
      // staff's edit of someone else's always makes a revision
      content.revision += step.byAdmin || !step.fold ? 1 : 0;
      const by = step.byAdmin ? 'admin' : content.author;
      const n = ++ids;
      const edit = {
        authorId: content.author,
        editorId: by,
        ...(step.byAdmin && { reason: `Fixed a link (${n})` }),
        revision: content.revision,
        editedAt: at(),
      };
      if (step.kind === 'editPost') {
        const title = TITLES[step.title]!;
        const data = { ...edit, postId: content.id, title, description: `${title} edited (${n})`, tags: [...step.tags] };
        append([postStream(content.id), event(PostEdited, data, by)]);
      } else {
        append([
          commentStream(content.id),
          event(CommentEdited, { ...edit, commentId: content.id, postId: comment!.post.id, text: `Comment edited ${n}` }, by),
        ]);
      }
      continue;
    }
    if (step.kind === 'deletePost') {
      const post = among(
        posts.filter((p) => !p.deleted),
        step.post,
      );
      if (!post) continue;
      post.deleted = true;
      const by = step.byAdmin ? 'admin' : post.author;
      append([postStream(post.id), event(PostDeleted, { postId: post.id, authorId: post.author, deletedBy: by, deletedAt: at() }, by)]);
      continue;
    }
    const who = people[step.user]!;
    if (who.erased) continue;
    switch (step.kind) {
      case 'post': {
        const post = { id: uuidOf(++ids), author: who.id, deleted: false, revision: 1 };
        posts.push(post);
        const data = { postId: post.id, title: TITLES[step.title]!, description: `${TITLES[step.title]} (${ids})`, tags: [...step.tags], createdAt: at() };
        append([
          postStream(post.id),
          event(PostCreated, { ...data, authorId: who.id, authorName: who.name, authorEmail: who.email, authorPhoto: who.photo }, who.id),
        ]);
        break;
      }
      case 'vote': {
        const post = among(
          posts.filter((p) => p.author !== who.id && (step.raced || !p.deleted)),
          step.post,
        );
        if (!post) break;
        const key = `${post.id} ${who.id}`;
        const previous = votes.get(key) ?? 'none';
        if (previous === step.vote) break;
        votes.set(key, step.vote);
        append([voteStream(post.id, who.id), event(VoteCast, { postId: post.id, userId: who.id, previous, vote: step.vote, at: at() }, who.id)]);
        break;
      }
      case 'comment': {
        const post = among(
          posts.filter((p) => step.raced || !p.deleted),
          step.post,
        );
        if (!post) break;
        const comment = { id: uuidOf(++ids), post, author: who.id, removed: false, revision: 1 };
        comments.push(comment);
        const data = { commentId: comment.id, postId: post.id, text: `Comment ${ids}`, createdAt: at() };
        append([
          commentStream(comment.id),
          event(CommentAdded, { ...data, authorId: who.id, authorName: who.name, authorEmail: who.email, authorPhoto: who.photo }, who.id),
        ]);
        break;
      }
      case 'report': {
        const open = comments.filter((c) => c.author !== who.id && !reports.has(`${c.id} ${who.id}`) && (step.raced || (!c.removed && !c.post.deleted)));
        const comment = among(open, step.comment);
        if (!comment) break;
        reports.add(`${comment.id} ${who.id}`);
        const feedback = REPORT_FEEDBACK[step.comment % REPORT_FEEDBACK.length]!;
        const data = {
          commentId: comment.id,
          postId: comment.post.id,
          reporterId: who.id,
          reporterName: who.name,
          reporterEmail: who.email,
          reporterPhoto: who.photo,
        };
        append([commentReportStream(comment.id, who.id), event(CommentReported, { ...data, feedback, reportedAt: at() }, who.id)]);
        break;
      }
      case 'reportPost': {
        const open = posts.filter((p) => p.author !== who.id && !reports.has(`${p.id} ${who.id}`) && (step.raced || !p.deleted));
        const post = among(open, step.post);
        if (!post) break;
        reports.add(`${post.id} ${who.id}`);
        const feedback = REPORT_FEEDBACK[step.post % REPORT_FEEDBACK.length]!;
        const data = { postId: post.id, reporterId: who.id, reporterName: who.name, reporterEmail: who.email, reporterPhoto: who.photo };
        append([postReportStream(post.id, who.id), event(PostReported, { ...data, feedback, reportedAt: at() }, who.id)]);
        break;
      }
      case 'profile': {
        const changes = { ...(step.name !== undefined && { name: step.name }), ...(step.photoURL !== undefined && { photoURL: step.photoURL }) };
        if (step.v1) {
          // as builds before ProfileUpdated v2 stored it: both fields, read through the upcaster
          Object.assign(who, { name: step.name ?? who.name, photo: step.photoURL ?? who.photo });
          append([userStream(who.id), event(ProfileUpdatedV1, { userId: who.id, name: who.name, photoURL: who.photo, updatedAt: at() }, who.id, 1)]);
        } else if (changes.name !== undefined || changes.photoURL !== undefined) {
          Object.assign(who, { name: changes.name ?? who.name, photo: changes.photoURL ?? who.photo });
          append([userStream(who.id), event(ProfileUpdated, { userId: who.id, changes, updatedAt: at() }, who.id)]);
        }
        break;
      }
      case 'erase': {
        who.erased = true;
        const going: [string, NewEvent][] = [];
        if (step.content === 'erased') {
          for (const post of posts.filter((p) => p.author === who.id && !p.deleted)) {
            post.deleted = true;
            going.push([postStream(post.id), event(PostDeleted, { postId: post.id, authorId: who.id, deletedBy: who.id, deletedAt: at() }, who.id)]);
          }
          for (const comment of comments.filter((c) => c.author === who.id && !c.removed)) {
            comment.removed = true;
            going.push([
              commentStream(comment.id),
              event(CommentRemoved, { commentId: comment.id, postId: comment.post.id, authorId: who.id, removedBy: who.id, removedAt: at() }, who.id),
            ]);
          }
        }
        append(...going, [userStream(who.id), event(AccountErased, { userId: who.id, content: step.content, erasedAt: at() }, who.id)]);
        break;
      }
    }
  }
  return log;

  /** Staff's step, when the command side would take it (appending nothing where it would append nothing). */
  function moderate(step: Extract<Step, { kind: 'moderate' }>) {
    const by = 'admin';
    const reason = ['Off topic', 'Spam', 'Rude'][step.reason]!;
    const live = posts.filter((p) => !p.deleted);
    const post = among(live, step.item);
    const comment = among(
      comments.filter((c) => !c.removed && !c.post.deleted),
      step.item,
    );
    switch (step.action) {
      case 'hidePost':
        if (!post || post.hidden === reason) return;
        post.hidden = reason;
        append([postStream(post.id), event(PostHidden, { postId: post.id, authorId: post.author, reason, hiddenBy: by, hiddenAt: at() }, by)]);
        return;
      case 'unhidePost': {
        const hidden = among(
          live.filter((p) => p.hidden),
          step.item,
        );
        if (!hidden) return;
        hidden.hidden = undefined;
        append([postStream(hidden.id), event(PostUnhidden, { postId: hidden.id, authorId: hidden.author, unhiddenBy: by, unhiddenAt: at() }, by)]);
        return;
      }
      case 'lock':
        if (!post || post.locked) return;
        post.locked = true;
        append([postStream(post.id), event(PostLocked, { postId: post.id, ...(step.reason > 0 && { reason }), lockedBy: by, lockedAt: at() }, by)]);
        return;
      case 'unlock': {
        const locked = among(
          live.filter((p) => p.locked),
          step.item,
        );
        if (!locked) return;
        locked.locked = false;
        append([postStream(locked.id), event(PostUnlocked, { postId: locked.id, unlockedBy: by, unlockedAt: at() }, by)]);
        return;
      }
      case 'pin':
        if (!post || post.pinned || live.filter((p) => p.pinned).length >= PINNED_MAX) return;
        post.pinned = true;
        append([PINS_STREAM, event(PostPinned, { postId: post.id, pinnedBy: by, pinnedAt: at() }, by)]);
        return;
      case 'unpin': {
        const pinned = among(
          posts.filter((p) => p.pinned),
          step.item,
        );
        if (!pinned) return;
        pinned.pinned = false;
        append([PINS_STREAM, event(PostUnpinned, { postId: pinned.id, unpinnedBy: by, unpinnedAt: at() }, by)]);
        return;
      }
      case 'hideComment':
        if (!comment || comment.hidden === reason) return;
        comment.hidden = reason;
        append([
          commentStream(comment.id),
          event(CommentHidden, { commentId: comment.id, postId: comment.post.id, authorId: comment.author, reason, hiddenBy: by, hiddenAt: at() }, by),
        ]);
        return;
      case 'unhideComment': {
        const hidden = among(
          comments.filter((c) => c.hidden && !c.removed && !c.post.deleted),
          step.item,
        );
        if (!hidden) return;
        hidden.hidden = undefined;
        append([
          commentStream(hidden.id),
          event(CommentUnhidden, { commentId: hidden.id, postId: hidden.post.id, authorId: hidden.author, unhiddenBy: by, unhiddenAt: at() }, by),
        ]);
        return;
      }
      case 'dismissPost':
        if (!post) return;
        append([
          postStream(post.id),
          event(ReportsDismissed, { item: { kind: 'post', id: post.id, postId: post.id }, dismissedBy: by, dismissedAt: at() }, by),
        ]);
        return;
      case 'dismissComment':
        if (!comment) return;
        append([
          commentStream(comment.id),
          event(ReportsDismissed, { item: { kind: 'comment', id: comment.id, postId: comment.post.id }, dismissedBy: by, dismissedAt: at() }, by),
        ]);
        return;
    }
  }
}
