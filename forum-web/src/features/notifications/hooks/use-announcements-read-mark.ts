import type { Announcement, Notifications } from '@forum/contracts';
import { useState } from 'react';
import { useHydrated } from '../../../lib/hydrated';
import { useMarkAnnouncementsReadMutation } from '../api/mark-announcements-read';
import { laterMark, seenKey } from '../components/unread';

/** How far the person at the bell has read the announcements. */
export interface AnnouncementsReadMark {
  /** False while a member's mark has not arrived from the server: then nothing counts as unread. */
  readonly known: boolean;
  /** The date of the newest announcement read; null when none was. */
  readonly upTo: string | null;
  /** Marks the announcements read up to `newest`. */
  markRead(newest: Announcement): void;
}

function readStored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/**
 * A member's mark is the server's (`notifications.announcementsReadUpTo`), so their phone and
 * laptop agree; marking sends it, silently (a failure leaves the count to come back on the next
 * load, as the spec's silent failures). Until the server has a mark for them, the one this
 * browser kept for them before the server kept it counts, and their first opening sends the
 * newest. A visitor's mark stays in this browser's localStorage (read once the page is hydrated: the
 * server that rendered it has none). `userId` undefined: who is at the bell is not known yet (the
 * sign-in check has not answered): no mark is known, so nothing counts (a member reloading a page
 * would otherwise see their read announcements counted against this browser's visitor mark).
 */
export function useAnnouncementsReadMark(userId: string | null | undefined, notifications: Notifications | undefined): AnnouncementsReadMark {
  const key = seenKey(userId ?? null);
  const [stored, setStored] = useState(() => ({ key, upTo: readStored(key) }));
  const local = stored.key === key ? stored.upTo : readStored(key);
  // what this tab sent: the badge goes by it at once, before the server's mark comes back
  const [sent, setSent] = useState<{ userId: string; upTo: string } | null>(null);
  const [send] = useMarkAnnouncementsReadMutation();
  // a server-rendered page knows no browser's mark: none counts until the page is hydrated
  const hydrated = useHydrated();

  if (userId === undefined) return { known: false, upTo: null, markRead: () => {} };
  if (userId === null) {
    return {
      known: hydrated,
      upTo: hydrated ? local : null,
      markRead(newest) {
        try {
          globalThis.localStorage?.setItem(key, newest.date);
        } catch {
          // private mode: the count comes back next time
        }
        setStored({ key, upTo: newest.date });
      },
    };
  }
  const mine = sent?.userId === userId ? sent.upTo : null;
  const server = notifications?.announcementsReadUpTo ?? null;
  return {
    known: notifications !== undefined || mine !== null,
    upTo: laterMark(notifications === undefined ? null : (server ?? local), mine),
    markRead(newest) {
      const known = laterMark(server, mine);
      if (known !== null && Date.parse(newest.date) <= Date.parse(known)) return;
      setSent({ userId, upTo: newest.date });
      void send({ announcementId: newest._id });
    },
  };
}
