import type { ActivityItem } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { activityText } from './notification-text';

const item = (changes: Partial<ActivityItem>): ActivityItem => ({
  _id: '9b0f3c1e-5a55-4c1b-9d7e-1f2a3b4c5d6e',
  kind: 'reply',
  postId: 'p1',
  postTitle: 'Zero-downtime deploys',
  commentId: 'c1',
  count: 1,
  actor: { _id: 'u-bob', name: 'Bob', handle: 'bob', photoURL: '' },
  excerpt: 'Nice one',
  createdAt: '2026-11-29T10:00:00.000Z',
  read: false,
  link: '/post/p1#comment-c1',
  ...changes,
});

describe('what a notification says', () => {
  it('a comment names its author and the post; comments collapsed into one say how many', () => {
    expect(activityText(item({}))).toBe('Bob commented on Zero-downtime deploys');
    expect(activityText(item({ kind: 'followed-post' }))).toBe('Bob commented on Zero-downtime deploys');
    expect(activityText(item({ count: 5 }))).toBe('5 new comments on Zero-downtime deploys');
  });

  it('a followed tag names the tag; a mention its author; a post that is gone says so', () => {
    expect(activityText(item({ kind: 'followed-tag', tag: 'devops' }))).toBe('New post in devops: Zero-downtime deploys');
    expect(activityText(item({ kind: 'mention' }))).toBe('Bob mentioned you in Zero-downtime deploys');
    expect(activityText(item({ kind: 'mention', postTitle: '', link: null }))).toBe('Bob mentioned you in a deleted post');
  });
});
