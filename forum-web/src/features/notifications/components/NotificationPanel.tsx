import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import type { Announcement, WarningItem } from '@forum/contracts';
import { Box, Divider, List, ListItem, ListItemIcon, ListItemText, Popover, Typography } from '@mui/material';
import { PlainMarkdownText } from '@forum/web-ui';
import { formatDate } from '../../../lib/format';
import { WarningAbout } from './WarningAbout';

interface NotificationPanelProps {
  id: string;
  /** the bell; the panel is open while there is one */
  anchor: HTMLElement | null;
  onClose: () => void;
  warnings: readonly WarningItem[];
  announcements: readonly Announcement[];
  /** the announcements new to the person (since their last opening of the bell) */
  fresh: ReadonlySet<string>;
}

/** What the bell lists (its own chunk): the person's warnings, then the announcements, newest first. */
export default function NotificationPanel({ id, anchor, onClose, warnings, announcements, fresh }: NotificationPanelProps) {
  return (
    <Popover
      id={id}
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
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
                secondary={
                  <>
                    <Box component="span" sx={{ display: 'block' }}>
                      {w.reason}
                    </Box>
                    <WarningAbout warning={w} onNavigate={onClose} />
                    <DateLine date={w.createdAt} />
                  </>
                }
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

/** Who wrote an item (when it says) and when: a line of its own below the item's text. */
function DateLine({ date, by }: { date: string; by?: string }) {
  return (
    <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
      {by !== undefined && `${by}, `}
      <time dateTime={date}>{formatDate(date)}</time>
    </Box>
  );
}
