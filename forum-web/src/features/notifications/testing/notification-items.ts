import type { ActivityItem } from '@forum/contracts';

/** A post the notifications of the tests are about. */
export const NOTIFIED_POST = '3e06aacc-67fc-4d09-87a1-4d80c088573c';
/** The n-th notification's id (a uuid, as POST /api/me/notifications/read wants). */
export const notificationId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Bob's comment on NOTIFIED_POST, the n-th notification, unread: `changes` make it another. */
export const activity = (n: number, changes: Partial<ActivityItem> = {}): ActivityItem => ({
  _id: notificationId(n),
  kind: 'reply',
  postId: NOTIFIED_POST,
  postTitle: 'Zero-downtime deploys',
  commentId: `c${n}`,
  count: 1,
  actor: { _id: 'u-bob', name: 'Bob', handle: 'bob', photoURL: '' },
  excerpt: `Comment ${n}`,
  createdAt: new Date(Date.UTC(2026, 10, 1) + n * 3_600_000).toISOString(),
  read: false,
  link: `/post/${NOTIFIED_POST}#comment-c${n}`,
  ...changes,
});
