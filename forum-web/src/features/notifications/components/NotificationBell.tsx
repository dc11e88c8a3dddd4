import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { Badge, IconButton } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import { Hint } from '../../../components/Hint';
import { useAuthState } from '../../../lib/auth';
import { useGetAnnouncementsQuery } from '../api/get-announcements';
import { useGetNotificationsQuery, useMarkNotificationsReadMutation } from '../api/notifications';
import { useLiveBell } from '../hooks/use-live-bell';
import { newestDate, seenKey, unreadAnnouncements, unreadCount } from './unread';

const loadPanel = () => import('./NotificationPanel');
const NotificationPanel = lazy(loadPanel);

function readSeen(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/**
 * The bell of the top bar (spec §2 Shell): a badge with what is new, only when there is something.
 * Everyone sees the announcements; a signed-in person also their own warnings. Opening it lists
 * them and marks them read: warnings on the server, announcements in this browser.
 */
export function NotificationBell() {
  const { user } = useAuthState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [opened, setOpened] = useState(false);
  const popoverId = useId();
  const key = seenKey(user?.id ?? null);
  const [seen, setSeen] = useState<{ key: string; upTo: string | null }>(() => ({ key, upTo: readSeen(key) }));
  const seenUpTo = seen.key === key ? seen.upTo : readSeen(key);
  const announcements = useGetAnnouncementsQuery().data ?? [];
  const warnings = useGetNotificationsQuery(undefined, { skip: !user }).data?.notifications ?? [];
  const [markRead] = useMarkNotificationsReadMutation();
  useLiveBell(user !== null);

  const count = unreadCount(announcements, seenUpTo, warnings);
  const fresh = new Set(unreadAnnouncements(announcements, seenUpTo).map((a) => a._id));

  const open = (target: HTMLElement) => {
    setAnchor(target);
    setOpened(true);
    const newest = newestDate(announcements);
    if (newest) {
      try {
        globalThis.localStorage?.setItem(key, newest);
      } catch {
        // private mode: the count comes back next time
      }
    }
    if (user && warnings.some((w) => !w.read)) void markRead({ upTo: warnings[0]!.createdAt });
  };
  const close = () => {
    setAnchor(null);
    setSeen({ key, upTo: readSeen(key) });
  };

  const label = count > 0 ? `Notifications, ${count} new` : 'Notifications';
  return (
    <>
      <Hint title="Notifications">
        <IconButton color="inherit" aria-label={label} aria-haspopup="dialog" aria-controls={anchor ? popoverId : undefined} onClick={(e) => open(e.currentTarget)} onPointerEnter={loadPanel} onFocus={loadPanel}>
          {/* the count is in the button's name: the badge is for the eye */}
          <Badge badgeContent={count > 0 ? count : undefined} color="secondary" max={99} slotProps={{ badge: { 'aria-hidden': true } }}>
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Hint>
      {/* the panel's code loads when the bell is first opened (or pointed at), and stays for its closing transition */}
      {opened && (
        <Suspense fallback={null}>
          <NotificationPanel id={popoverId} anchor={anchor} onClose={close} warnings={warnings} announcements={announcements} fresh={fresh} />
        </Suspense>
      )}
    </>
  );
}
