import AlternateEmailOutlined from '@mui/icons-material/AlternateEmailOutlined';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import type { ActivityItem, ModerationItem, NotificationItem } from '@forum/contracts';
import { Box, ListItem, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { formatDate } from '../../../lib/format';
import { activityText, moderationText } from './notification-text';
import { WarningAbout } from './WarningAbout';

const ICONS = {
  reply: ChatBubbleOutline,
  'followed-post': ChatBubbleOutline,
  'followed-tag': LocalOfferOutlined,
  mention: AlternateEmailOutlined,
  moderation: GavelOutlined,
} as const;

/** A notification that leads somewhere when opened: activity, or what staff did to the member's content or account. */
export type LinkedItem = ActivityItem | ModerationItem;

/** What a linked notification says in its first line. */
export const linkedText = (item: LinkedItem) => (item.kind === 'moderation' ? moderationText(item) : activityText(item));

/** What a linked notification says under its first line: an excerpt of the text, or staff's reason. */
const detailOf = (item: LinkedItem) => (item.kind === 'moderation' ? (item.reason ? `Reason: ${item.reason}` : '') : item.excerpt);

interface NotificationListItemProps {
  item: NotificationItem;
  /** A reply, comment, post or mention was opened (its link followed): mark it read, close what showed it. */
  onOpen: (item: LinkedItem) => void;
  /** A warning's post link was followed. */
  onNavigate: () => void;
  /** What stands at the row's end (the centre's "Mark as read"). */
  action?: ReactNode;
}

/**
 * One notification in a list (the bell's and the centre's): a reply, a followed post's comment, a new
 * post in a followed tag, a mention or what staff did to the member's post, comment or account is a
 * link to what it is about ("(new)" while unread; staff's reason under it); a warning says why, and
 * what it is about, as the bell always did.
 */
export function NotificationListItem({ item, onOpen, onNavigate, action }: NotificationListItemProps) {
  const unread = item.read ? '' : ' (new)';
  if (item.kind === 'warning')
    return (
      <ListItem alignItems="flex-start" secondaryAction={action} sx={{ bgcolor: item.read ? undefined : 'warning.50' }}>
        <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
          <WarningAmberOutlined color="warning" aria-hidden />
        </ListItemIcon>
        <ListItemText
          primary={`Warning from a moderator${unread}`}
          secondary={
            <>
              <Box component="span" sx={{ display: 'block' }}>
                {item.reason}
              </Box>
              <WarningAbout warning={item} onNavigate={onNavigate} />
              <DateLine date={item.createdAt} />
            </>
          }
        />
      </ListItem>
    );
  const Icon = ICONS[item.kind];
  const detail = detailOf(item);
  const content = (
    <>
      <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
        <Icon color={item.read ? 'action' : 'primary'} aria-hidden />
      </ListItemIcon>
      <ListItemText
        primary={`${linkedText(item)}${unread}`}
        secondary={
          <>
            {detail && (
              <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                {detail}
              </Box>
            )}
            <DateLine date={item.createdAt} />
          </>
        }
        slotProps={{ primary: { sx: { fontWeight: item.read ? 400 : 700, overflowWrap: 'anywhere' } } }}
      />
    </>
  );
  return (
    <ListItem disablePadding secondaryAction={action} sx={{ bgcolor: item.read ? undefined : 'action.hover' }}>
      {item.link === null ? (
        <Box sx={{ display: 'flex', alignItems: 'flex-start', px: 2, py: 1 }}>{content}</Box>
      ) : (
        <ListItemButton component={RouterLink} to={item.link} onClick={() => onOpen(item)} alignItems="flex-start">
          {content}
        </ListItemButton>
      )}
    </ListItem>
  );
}

/** Who wrote an item (when it says) and when: a line of its own below the item's text. */
export function DateLine({ date, by }: { date: string; by?: string }) {
  return (
    <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
      {by !== undefined && `${by}, `}
      <time dateTime={date}>{formatDate(date)}</time>
    </Box>
  );
}
