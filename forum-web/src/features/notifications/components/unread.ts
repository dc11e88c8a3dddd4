import type { Announcement, NotificationItem } from '@forum/contracts';

/** Where a browser keeps the newest announcement its person has seen (per account, or the visitor's). */
export const seenKey = (userId: string | null) => `forum.announcements.seen.${userId ?? 'visitor'}`;

/** The announcements newer than the one last seen (all of them when none was). */
export function unreadAnnouncements(announcements: readonly Announcement[], seenUpTo: string | null): Announcement[] {
  if (!seenUpTo) return [...announcements];
  const seen = Date.parse(seenUpTo);
  return announcements.filter((a) => Date.parse(a.date) > seen);
}

/** What the badge counts: unread announcements and unread warnings. */
export function unreadCount(announcements: readonly Announcement[], seenUpTo: string | null, warnings: readonly NotificationItem[]): number {
  return unreadAnnouncements(announcements, seenUpTo).length + warnings.filter((w) => !w.read).length;
}

/** The newest date among the announcements (what opening the bell marks as seen). */
export function newestDate(announcements: readonly Announcement[]): string | null {
  let newest: string | null = null;
  for (const a of announcements) if (!newest || Date.parse(a.date) > Date.parse(newest)) newest = a.date;
  return newest;
}
