import type { Announcement } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { laterMark, newestAnnouncement, seenKey, unreadAnnouncements } from './unread';

const announcement = (id: string, date: string): Announcement => ({ _id: id, title: `t${id}`, description: 'd', authorName: 'Admin', authorPhoto: '', date });

describe('the bell count', () => {
  const list = [announcement('2', '2026-11-22T10:00:00.000Z'), announcement('1', '2026-11-21T10:00:00.000Z')];

  it('counts every announcement until one was seen, then only the newer ones', () => {
    expect(unreadAnnouncements(list, null)).toHaveLength(2);
    expect(unreadAnnouncements(list, '2026-11-21T10:00:00.000Z').map((a) => a._id)).toEqual(['2']);
    expect(unreadAnnouncements(list, '2026-11-22T10:00:00.000Z')).toEqual([]);
    expect(unreadAnnouncements([], null)).toEqual([]);
  });

  it('marks as seen up to the newest announcement, whatever their order', () => {
    expect(newestAnnouncement([list[1]!, list[0]!])?._id).toBe('2');
    expect(newestAnnouncement([])).toBeNull();
  });

  it('goes by the later of two marks (the server’s and what this tab sent)', () => {
    expect(laterMark(null, null)).toBeNull();
    expect(laterMark('2026-11-21T10:00:00.000Z', null)).toBe('2026-11-21T10:00:00.000Z');
    expect(laterMark(null, '2026-11-21T10:00:00.000Z')).toBe('2026-11-21T10:00:00.000Z');
    expect(laterMark('2026-11-22T10:00:00.000Z', '2026-11-21T10:00:00.000Z')).toBe('2026-11-22T10:00:00.000Z');
    expect(laterMark('2026-11-21T10:00:00.000Z', '2026-11-22T10:00:00.000Z')).toBe('2026-11-22T10:00:00.000Z');
  });

  it('keeps what was seen apart for each account and for visitors', () => {
    expect(seenKey('u1')).not.toBe(seenKey('u2'));
    expect(seenKey(null)).toBe('forum.announcements.seen.visitor');
  });
});
