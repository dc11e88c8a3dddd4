import type { Announcement, NotificationItem } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { newestDate, seenKey, unreadAnnouncements, unreadCount } from './unread';

const announcement = (id: string, date: string): Announcement => ({ _id: id, title: `t${id}`, description: 'd', authorName: 'Admin', authorPhoto: '', date });
const warning = (id: string, read: boolean): NotificationItem => ({ _id: id, kind: 'warning', reason: 'r', createdAt: '2026-11-20T10:00:00.000Z', read });

describe('the bell count', () => {
  const list = [announcement('2', '2026-11-22T10:00:00.000Z'), announcement('1', '2026-11-21T10:00:00.000Z')];

  it('counts every announcement until one was seen, then only the newer ones', () => {
    expect(unreadCount(list, null, [])).toBe(2);
    expect(unreadCount(list, '2026-11-21T10:00:00.000Z', [])).toBe(1);
    expect(unreadCount(list, '2026-11-22T10:00:00.000Z', [])).toBe(0);
    expect(unreadAnnouncements(list, '2026-11-21T10:00:00.000Z').map((a) => a._id)).toEqual(['2']);
  });

  it('adds the unread warnings, not the read ones', () => {
    expect(unreadCount(list, '2026-11-22T10:00:00.000Z', [warning('a', false), warning('b', true)])).toBe(1);
    expect(unreadCount([], null, [])).toBe(0);
  });

  it('marks as seen up to the newest announcement, whatever their order', () => {
    expect(newestDate([list[1]!, list[0]!])).toBe('2026-11-22T10:00:00.000Z');
    expect(newestDate([])).toBeNull();
  });

  it('keeps what was seen apart for each account and for visitors', () => {
    expect(seenKey('u1')).not.toBe(seenKey('u2'));
    expect(seenKey(null)).toBe('forum.announcements.seen.visitor');
  });
});
