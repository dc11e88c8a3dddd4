import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { BELL_LATEST } from '@forum/contracts';
import { Badge, IconButton } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import { Hint } from '../../../components/Hint';
import { useAuthState } from '../../../lib/auth';
import { useGetAnnouncementsQuery } from '../api/get-announcements';
import { BELL_PAGE, useGetNotificationsQuery, useMarkNotificationsReadMutation } from '../api/notifications';
import { useAnnouncementsReadMark } from '../hooks/use-announcements-read-mark';
import { useLiveBell } from '../hooks/use-live-bell';
import type { LinkedItem } from './NotificationListItem';
import { newestAnnouncement, unreadAnnouncements } from './unread';

const loadPanel = () => import('./NotificationPanel');
const NotificationPanel = lazy(loadPanel);

/**
 * The bell of the top bar (spec §2 Shell): a badge with what is new, only when there is something.
 * Everyone sees the announcements; a signed-in member also their own notifications (replies,
 * comments on what they follow, new posts in tags they follow, mentions, warnings): the count is
 * all their unread ones, the panel the latest BELL_LATEST. Opening the bell marks the warnings it
 * shows and the announcements read: announcements on the server for a member (every device of
 * theirs agrees), in this browser for a visitor; opening a notification marks it read.
 */
export function NotificationBell() {
  const { status, user } = useAuthState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [opened, setOpened] = useState(false);
  const popoverId = useId();
  const announcements = useGetAnnouncementsQuery().data ?? [];
  const notifications = useGetNotificationsQuery(BELL_PAGE, { skip: !user }).data;
  const latest = (notifications?.notifications ?? []).slice(0, BELL_LATEST);
  const [markRead] = useMarkNotificationsReadMutation();
  const readMark = useAnnouncementsReadMark(status === 'loading' ? undefined : (user?.id ?? null), notifications);
  useLiveBell(user !== null);
  // while the panel is open it keeps showing what was new when it opened
  const [freshWhenOpened, setFreshWhenOpened] = useState<ReadonlySet<string> | null>(null);

  const unread = readMark.known ? unreadAnnouncements(announcements, readMark.upTo) : [];
  const fresh = freshWhenOpened ?? new Set(unread.map((a) => a._id));
  const count = fresh.size + (notifications?.unread ?? 0);

  const open = (target: HTMLElement) => {
    setAnchor(target);
    setOpened(true);
    setFreshWhenOpened(fresh);
    const newest = newestAnnouncement(announcements);
    if (newest) readMark.markRead(newest);
    const unreadWarnings = latest.filter((item) => item.kind === 'warning' && !item.read).map((item) => item._id);
    if (user && unreadWarnings.length > 0) void markRead({ ids: unreadWarnings });
  };
  const openItem = (item: LinkedItem) => {
    if (!item.read) void markRead({ ids: [item._id] });
  };
  const close = () => {
    setAnchor(null);
    setFreshWhenOpened(null);
  };

  const label = count > 0 ? `Notifications, ${count} new` : 'Notifications';
  return (
    <>
      <Hint title="Notifications">
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-controls={anchor ? popoverId : undefined}
          onClick={(e) => open(e.currentTarget)}
          onPointerEnter={() => void loadPanel()}
          onFocus={() => void loadPanel()}
        >
          {/* the count is in the button's name: the badge is for the eye */}
          <Badge badgeContent={count > 0 ? count : undefined} color="secondary" max={99} slotProps={{ badge: { 'aria-hidden': true } }}>
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Hint>
      {/* the panel's code loads when the bell is first opened (or pointed at), and stays for its closing transition */}
      {opened && (
        <Suspense fallback={null}>
          <NotificationPanel
            id={popoverId}
            anchor={anchor}
            onClose={close}
            items={user ? latest : null}
            announcements={announcements}
            fresh={fresh}
            onOpen={openItem}
          />
        </Suspense>
      )}
    </>
  );
}
