import type { Announcement } from '@forum/contracts';

/** Where a browser keeps the newest announcement its visitor has seen (and, before the server kept it, a member's: `userId`). */
export const seenKey = (userId: string | null) => `forum.announcements.seen.${userId ?? 'visitor'}`;

/** The announcements newer than the one last seen (all of them when none was). */
export function unreadAnnouncements(announcements: readonly Announcement[], seenUpTo: string | null): Announcement[] {
  if (!seenUpTo) return [...announcements];
  const seen = Date.parse(seenUpTo);
  return announcements.filter((a) => Date.parse(a.date) > seen);
}

/** The newest of the announcements (what opening the bell marks as seen), whatever their order. */
export function newestAnnouncement(announcements: readonly Announcement[]): Announcement | null {
  let newest: Announcement | null = null;
  for (const a of announcements) if (!newest || Date.parse(a.date) > Date.parse(newest.date)) newest = a;
  return newest;
}

/** The later of two marks (null: none). */
export function laterMark(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}
