import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import { Badge, Box, Divider, IconButton, List, ListItem, ListItemIcon, ListItemText, Popover, Tooltip, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useAuthState } from '../../../lib/auth';
import { formatDate } from '../../../lib/format';
import { useGetAnnouncementsQuery } from '../api/get-announcements';
import { useGetNotificationsQuery, useMarkNotificationsReadMutation } from '../api/notifications';
import { newestDate, seenKey, unreadAnnouncements, unreadCount } from './unread';

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
  const popoverId = useId();
  const key = seenKey(user?.id ?? null);
  const [seen, setSeen] = useState<{ key: string; upTo: string | null }>(() => ({ key, upTo: readSeen(key) }));
  const seenUpTo = seen.key === key ? seen.upTo : readSeen(key);
  const announcements = useGetAnnouncementsQuery().data ?? [];
  const warnings = useGetNotificationsQuery(undefined, { skip: !user }).data?.notifications ?? [];
  const [markRead] = useMarkNotificationsReadMutation();

  const count = unreadCount(announcements, seenUpTo, warnings);
  const fresh = new Set(unreadAnnouncements(announcements, seenUpTo).map((a) => a._id));

  const open = (target: HTMLElement) => {
    setAnchor(target);
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
      <Tooltip title="Notifications">
        <IconButton color="inherit" aria-label={label} aria-haspopup="dialog" aria-controls={anchor ? popoverId : undefined} onClick={(e) => open(e.currentTarget)}>
          {/* the count is in the button's name: the badge is for the eye */}
          <Badge badgeContent={count > 0 ? count : undefined} color="secondary" max={99} slotProps={{ badge: { 'aria-hidden': true } }}>
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={popoverId}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 16px)', maxHeight: 480 }, role: 'dialog', 'aria-label': 'Notifications' } }}
      >
        <Box sx={{ px: 2, pt: 1.5, pb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
            Notifications
          </Typography>
        </Box>
        <Divider />
        {announcements.length === 0 && warnings.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            You're all caught up.
          </Typography>
        ) : (
          <List dense aria-label="Notifications">
            {warnings.map((w) => (
              <ListItem key={w._id} alignItems="flex-start" sx={{ bgcolor: w.read ? undefined : 'warning.50' }}>
                <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
                  <WarningAmberOutlined color="warning" aria-hidden />
                </ListItemIcon>
                <ListItemText
                  primary={`Warning from a moderator${w.read ? '' : ' (new)'}`}
                  secondary={`${w.reason} · ${formatDate(w.createdAt)}`}
                />
              </ListItem>
            ))}
            {announcements.map((a) => (
              <ListItem key={a._id} alignItems="flex-start">
                <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
                  <CampaignOutlined color="primary" aria-hidden />
                </ListItemIcon>
                <ListItemText
                  primary={`${a.title}${fresh.has(a._id) ? ' (new)' : ''}`}
                  secondary={`${a.description} · ${a.authorName}, ${formatDate(a.date)}`}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
