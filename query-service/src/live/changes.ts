import {
  AccountDisabled,
  AccountErased,
  AnnouncementPublished,
  AnnouncementsRead,
  CommentAdded,
  CommentEdited,
  CommentHidden,
  CommentRemoved,
  CommentUnhidden,
  MemberSuspended,
  ModeratorRoleGranted,
  ModeratorRoleRevoked,
  NotificationsRead,
  PostCreated,
  PostDeleted,
  PostEdited,
  PostHidden,
  PostLocked,
  PostPinned,
  postTopic,
  PostUnhidden,
  PostUnlocked,
  PostUnpinned,
  SuspensionLifted,
  UserWarned,
  VoteCast,
  WarningsRead,
  type StreamMessageType,
} from '@forum/contracts';
import type { z } from 'zod';

/**
 * What an event of the log changes for the change stream's clients, by event type: the table to
 * extend when a new event should reach them. Only ids are read: the follower reads the log with
 * nothing opened (names and texts stay sealed, and a stream never copies them).
 */
export type Change =
  /** A message to everyone following one of `topics`. */
  | { readonly kind: 'message'; readonly type: StreamMessageType; readonly topics: readonly string[]; readonly data: Readonly<Record<string, string>> }
  /** The post's counts moved: one `post-counts` a batch, read from the read model once the batch is applied. */
  | { readonly kind: 'counts'; readonly postId: string }
  /** The member's notifications changed: one `notifications` a batch, on their own stream only. */
  | { readonly kind: 'notifications'; readonly memberId: string }
  /**
   * The event may have reached members' notifications (a new post or comment, an edit's mention):
   * whom, only the notifications read model knows once the batch is applied (see ChangeFollower).
   */
  | { readonly kind: 'fan-out' }
  /** The member's account changed (suspension, role): one `account` a batch, on their own stream only. */
  | { readonly kind: 'account'; readonly memberId: string }
  /** The member may no longer read: their own streams end. */
  | { readonly kind: 'close'; readonly memberId: string };

interface Definition<S extends z.ZodType> {
  readonly type: string;
  readonly schema: S;
}
type ChangesOf = (data: never) => readonly Change[];

/** One row of the table: an event definition of contracts and what its data changes. */
const on = <S extends z.ZodType>(definition: Definition<S>, changes: (data: z.infer<S>) => readonly Change[]): [string, ChangesOf] => [
  definition.type,
  changes,
];

const message = (type: StreamMessageType, topics: readonly string[], data: Record<string, string>): Change => ({ kind: 'message', type, topics, data });
const counts = (postId: string): Change => ({ kind: 'counts', postId });
const notifications = (memberId: string): Change => ({ kind: 'notifications', memberId });
const account = (memberId: string): Change => ({ kind: 'account', memberId });
const close = (memberId: string): Change => ({ kind: 'close', memberId });
/** Staff acted on a post: whoever shows it reads it again (it may be gone for them, or back, or marked). */
const postModerated = (postId: string): Change => message('post-moderated', ['posts', postTopic(postId)], { postId });
const fanOut: Change = { kind: 'fan-out' };

/** Every event type that changes something for the stream's clients; the others change nothing. */
export const CHANGES: ReadonlyMap<string, ChangesOf> = new Map([
  on(PostCreated, ({ postId }) => [message('post-created', ['posts'], { postId }), fanOut]),
  on(PostDeleted, ({ postId }) => [message('post-deleted', ['posts', postTopic(postId)], { postId })]),
  // the home list and the searches show its title, its page the whole post
  on(PostEdited, ({ postId }) => [message('post-edited', ['posts', postTopic(postId)], { postId }), fanOut]),
  on(VoteCast, ({ postId }) => [counts(postId)]),
  on(CommentAdded, ({ postId, commentId }) => [counts(postId), message('comment-added', [postTopic(postId)], { postId, commentId }), fanOut]),
  on(CommentRemoved, ({ postId, commentId }) => [counts(postId), message('comment-removed', [postTopic(postId)], { postId, commentId })]),
  on(CommentEdited, ({ postId, commentId }) => [message('comment-edited', [postTopic(postId)], { postId, commentId }), fanOut]),
  // its author has read it (the notifications read model moves their mark)
  on(AnnouncementPublished, ({ announcementId, authorId }) => [
    message('announcement-published', ['announcements'], { announcementId }),
    notifications(authorId),
  ]),
  on(UserWarned, ({ userId }) => [notifications(userId)]),
  on(WarningsRead, ({ userId }) => [notifications(userId)]),
  on(AnnouncementsRead, ({ userId }) => [notifications(userId)]),
  on(NotificationsRead, ({ userId }) => [notifications(userId)]),
  // staff's actions (issue #43): the post or comment read again; the member told (a moderation notification), their account read again
  on(PostHidden, ({ postId, authorId }) => [postModerated(postId), notifications(authorId)]),
  on(PostUnhidden, ({ postId, authorId }) => [postModerated(postId), notifications(authorId)]),
  on(PostLocked, ({ postId }) => [postModerated(postId)]),
  on(PostUnlocked, ({ postId }) => [postModerated(postId)]),
  on(PostPinned, ({ postId }) => [postModerated(postId)]),
  on(PostUnpinned, ({ postId }) => [postModerated(postId)]),
  on(CommentHidden, ({ postId, commentId, authorId }) => [message('comment-moderated', [postTopic(postId)], { postId, commentId }), notifications(authorId)]),
  on(CommentUnhidden, ({ postId, commentId, authorId }) => [message('comment-moderated', [postTopic(postId)], { postId, commentId }), notifications(authorId)]),
  on(MemberSuspended, ({ userId }) => [account(userId), notifications(userId)]),
  on(SuspensionLifted, ({ userId }) => [account(userId), notifications(userId)]),
  on(ModeratorRoleGranted, ({ userId }) => [account(userId)]),
  on(ModeratorRoleRevoked, ({ userId }) => [account(userId)]),
  on(AccountErased, ({ userId }) => [close(userId)]),
  on(AccountDisabled, ({ userId }) => [close(userId)]),
]);

/** What one event changes (nothing for a type outside CHANGES). */
export const changesOf = (event: { readonly type: string; readonly data: unknown }): readonly Change[] => CHANGES.get(event.type)?.(event.data as never) ?? [];
