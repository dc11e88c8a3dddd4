import type { AuthUser } from '@forum/web-auth';

/** The account screens' test user. */
export const BOB: AuthUser = { id: 'user-bob', email: 'bob@forum.local', name: 'Bob Chen', picture: '', roles: ['user'], emailVerified: true };

/** GET /api/me for BOB, a member or not. */
export const me = (isMember: boolean) => ({
  _id: BOB.id,
  name: BOB.name,
  email: BOB.email,
  photoURL: '',
  handle: 'bob.chen',
  role: 'user',
  isMember,
  registeredAt: '2026-11-01T10:00:00.000Z',
});

/** One of BOB's recent posts, numbered `n`: n up votes and 2n comments. */
const recent = (n: number) => ({
  _id: `6f1c8a52-1111-4a4a-9a9a-00000000000${n}`,
  title: `Post number ${n}`,
  summary: '',
  tags: [],
  authorName: BOB.name,
  authorId: BOB.id,
  authorPhoto: '',
  createdAt: '2026-11-20T09:30:00.000Z',
  upVote: n,
  downVote: 0,
  commentCount: 2 * n,
  revisionCount: 1,
});

/** GET /api/user-profile/:email for BOB, a member (Gold) or not (Bronze): four posts, three of them recent. */
export const profile = (isMember: boolean, photoURL = '') => ({
  user: { _id: BOB.id, name: BOB.name, photoURL, role: 'user', isMember, badge: isMember ? 'Gold' : 'Bronze', email: BOB.email },
  stats: { posts: 4, comments: 2, commentsReceived: 9, upVotes: 13 },
  recentPosts: [recent(1), recent(2), recent(3)],
});
