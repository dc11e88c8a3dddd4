import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import { NOTIFICATIONS_PATH, type Announcement, type NotificationItem } from '@forum/contracts';
import { Box, Button, Divider, List, ListItem, ListItemIcon, ListItemText, Popover, Typography } from '@mui/material';
import { PlainMarkdownText } from '@forum/web-ui';
import { Link as RouterLink } from 'react-router-dom';
import { DateLine, NotificationListItem, type LinkedItem } from './NotificationListItem';

interface NotificationPanelProps {
  id: string;
  /** the bell; the panel is open while there is one */
  anchor: HTMLElement | null;
  onClose: () => void;
  /** a member's latest notifications of every kind (BELL_LATEST), newest first; null for a visitor */
  items: readonly NotificationItem[] | null;
  announcements: readonly Announcement[];
  /** the announcements new to the person (since their last opening of the bell) */
  fresh: ReadonlySet<string>;
  /** a notification was opened: it is marked read */
  onOpen?: (item: LinkedItem) => void;
}

/**
 * What the bell lists (its own chunk): a member's latest notifications, then the announcements,
 * newest first; a member also has "See all", the way to the notification centre.
 */
export default function NotificationPanel({ id, anchor, onClose, items, announcements, fresh, onOpen }: NotificationPanelProps) {
  const mine = items ?? [];
  const open = (item: LinkedItem) => {
    onOpen?.(item);
    onClose();
  };
  return (
    <Popover
      id={id}
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { width: 380, maxWidth: 'calc(100vw - 16px)', maxHeight: 520 }, role: 'dialog', 'aria-label': 'Notifications' } }}
    >
      <Box sx={{ px: 2, pt: 1.5, pb: 1, display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
          Notifications
        </Typography>
        {items !== null && (
          <Button component={RouterLink} to={NOTIFICATIONS_PATH} onClick={onClose} size="small">
            See all
          </Button>
        )}
      </Box>
      <Divider />
      {announcements.length === 0 && mine.length === 0 ? (
        <Typography sx={{ p: 2 }} color="text.secondary">
          You're all caught up.
        </Typography>
      ) : (
        <List dense aria-label="Notifications">
          {mine.map((item) => (
            <NotificationListItem key={item._id} item={item} onOpen={open} onNavigate={onClose} />
          ))}
          {announcements.map((a) => (
            <ListItem key={a._id} alignItems="flex-start">
              <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
                <CampaignOutlined color="primary" aria-hidden />
              </ListItemIcon>
              <ListItemText
                primary={`${a.title}${fresh.has(a._id) ? ' (new)' : ''}`}
                secondary={
                  <>
                    <PlainMarkdownText source={a.description} />
                    <DateLine date={a.date} by={a.authorName} />
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
    </Popover>
  );
}
