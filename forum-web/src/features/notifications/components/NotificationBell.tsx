import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { Badge, IconButton } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import { Hint } from '../../../components/Hint';
import { useAuthState } from '../../../lib/auth';
import { useGetAnnouncementsQuery } from '../api/get-announcements';
import { useGetNotificationsQuery, useMarkNotificationsReadMutation } from '../api/notifications';
import { useAnnouncementsReadMark } from '../hooks/use-announcements-read-mark';
import { useLiveBell } from '../hooks/use-live-bell';
import { newestAnnouncement, unreadAnnouncements } from './unread';

const loadPanel = () => import('./NotificationPanel');
const NotificationPanel = lazy(loadPanel);

/**
 * The bell of the top bar (spec §2 Shell): a badge with what is new, only when there is something.
 * Everyone sees the announcements; a signed-in person also their own warnings. Opening it lists
 * them and marks them read: warnings on the server; announcements on the server for a member
 * (every device of theirs agrees), in this browser for a visitor.
 */
export function NotificationBell() {
  const { user } = useAuthState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [opened, setOpened] = useState(false);
  const popoverId = useId();
  const announcements = useGetAnnouncementsQuery().data ?? [];
  const notifications = useGetNotificationsQuery(undefined, { skip: !user }).data;
  const warnings = (notifications?.notifications ?? []).filter((item) => item.kind === 'warning');
  const [markWarningsRead] = useMarkNotificationsReadMutation();
  const readMark = useAnnouncementsReadMark(user?.id ?? null, notifications);
  useLiveBell(user !== null);
  // while the panel is open it keeps showing what was new when it opened
  const [freshWhenOpened, setFreshWhenOpened] = useState<ReadonlySet<string> | null>(null);

  const unread = readMark.known ? unreadAnnouncements(announcements, readMark.upTo) : [];
  const fresh = freshWhenOpened ?? new Set(unread.map((a) => a._id));
  const count = fresh.size + warnings.filter((w) => !w.read).length;

  const open = (target: HTMLElement) => {
    setAnchor(target);
    setOpened(true);
    setFreshWhenOpened(fresh);
    const newest = newestAnnouncement(announcements);
    if (newest) readMark.markRead(newest);
    if (user && warnings.some((w) => !w.read)) void markWarningsRead({ upTo: warnings[0]!.createdAt });
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
          <NotificationPanel id={popoverId} anchor={anchor} onClose={close} warnings={warnings} announcements={announcements} fresh={fresh} />
        </Suspense>
      )}
    </>
  );
}
