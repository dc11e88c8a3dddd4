import type { ActivityItem, ModerationItem } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../lib/format';
import { activityText, moderationText } from './notification-text';

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

const moderation = (changes: Partial<ModerationItem>): ModerationItem => ({
  _id: '9b0f3c1e-5a55-4c1b-9d7e-1f2a3b4c5d6f',
  kind: 'moderation',
  action: 'post-hidden',
  reason: 'Off topic',
  postId: 'p1',
  postTitle: 'Zero-downtime deploys',
  createdAt: '2026-11-29T10:00:00.000Z',
  read: false,
  link: '/post/p1',
  ...changes,
});

describe('what a moderation notification says', () => {
  it('names the post hidden or shown again, or says the post was deleted', () => {
    expect(moderationText(moderation({}))).toBe('A moderator hid your post "Zero-downtime deploys"');
    expect(moderationText(moderation({ action: 'post-unhidden', reason: undefined }))).toBe('Your post "Zero-downtime deploys" is shown again');
    expect(moderationText(moderation({ action: 'comment-hidden', commentId: 'c1' }))).toBe('A moderator hid your comment on "Zero-downtime deploys"');
    expect(moderationText(moderation({ action: 'comment-unhidden', postTitle: undefined }))).toBe('Your comment on a post that was deleted is shown again');
  });

  it("says until when a suspension lasts, in the reader's locale, or that a moderator lifts it", () => {
    const until = '2026-12-02T14:00:00.000Z';
    expect(moderationText(moderation({ action: 'suspended', until }))).toBe(`Your account is suspended until ${formatDateTime(until)}`);
    expect(moderationText(moderation({ action: 'suspended', until: null }))).toBe('Your account is suspended until a moderator lifts it');
    expect(moderationText(moderation({ action: 'suspension-lifted' }))).toBe('Your suspension was lifted: you can write again');
  });
});
