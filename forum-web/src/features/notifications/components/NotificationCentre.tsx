import DoneAll from '@mui/icons-material/DoneAll';
import DoneOutlined from '@mui/icons-material/DoneOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import { NOTIFICATION_PAGE_SIZE, type NotificationItem } from '@forum/contracts';
import { Alert, Box, Button, FormControlLabel, IconButton, List, Pagination, Paper, Skeleton, Stack, Switch, Typography } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Hint } from '../../../components/Hint';
import { usePageParam } from '../../../lib/page-param';
import { useGetNotificationsQuery, useMarkNotificationsReadMutation } from '../api/notifications';
import { linkedText, NotificationListItem, type LinkedItem } from './NotificationListItem';

/** What a notification is called where a button names it ("Mark as read: Bob commented on …"). */
const nameOf = (item: NotificationItem) => (item.kind === 'warning' ? 'Warning from a moderator' : linkedText(item));

/**
 * The notification centre (NOTIFICATIONS_PATH, in the dashboard): every notification of the member,
 * newest first, NOTIFICATION_PAGE_SIZE a page (`?page=`), or the unread ones only (`?unread=true`);
 * each can be marked read, or all at once; opening one marks it read.
 */
export function NotificationCentre() {
  const [search, setSearch] = useSearchParams();
  const unread = search.get('unread') === 'true';
  const { page, setPage } = usePageParam();
  const { data, isLoading, isError } = useGetNotificationsQuery({ page, unread });
  const [markRead, { isLoading: marking }] = useMarkNotificationsReadMutation();
  const pages = Math.max(1, Math.ceil((data?.totalCount ?? 0) / NOTIFICATION_PAGE_SIZE));
  const items = data?.notifications ?? [];

  const showUnread = (only: boolean) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.delete('page');
      if (only) next.set('unread', 'true');
      else next.delete('unread');
      return next;
    });
  const open = (item: LinkedItem) => {
    if (!item.read) void markRead({ ids: [item._id] });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="notifications-heading" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack sx={{ gap: 1, mb: 2 }}>
        <Typography id="notifications-heading" variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          Notifications
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to="/dashboard/notification-preferences" startIcon={<TuneOutlined />}>
            Preferences
          </Button>
          <FormControlLabel control={<Switch checked={unread} onChange={(event) => showUnread(event.target.checked)} />} label="Unread only" />
          <Button variant="outlined" startIcon={<DoneAll />} disabled={marking || (data?.unread ?? 0) === 0} onClick={() => void markRead({})}>
            Mark all as read
          </Button>
        </Stack>
      </Stack>
      {data && (
        <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {data.unread === 0 ? 'Nothing unread.' : `${data.unread} unread`}
        </Typography>
      )}
      {isError ? (
        <Alert severity="error">Your notifications could not be loaded. Try again in a moment.</Alert>
      ) : isLoading ? (
        <Stack spacing={1} aria-busy="true" aria-label="Loading notifications">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={56} />
          ))}
        </Stack>
      ) : items.length === 0 ? (
        <Box sx={{ py: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">
            {unread
              ? 'No unread notifications: you are all caught up.'
              : 'No notifications yet. Replies, mentions and news from what you follow will show here.'}
          </Typography>
        </Box>
      ) : (
        <List aria-label="Notifications" sx={{ '& > li': { borderBottom: 1, borderColor: 'divider' } }}>
          {items.map((item) => (
            <NotificationListItem
              key={item._id}
              item={item}
              onOpen={open}
              onNavigate={() => {}}
              action={
                item.read ? undefined : (
                  <Hint title="Mark as read">
                    <IconButton edge="end" aria-label={`Mark as read: ${nameOf(item)}`} disabled={marking} onClick={() => void markRead({ ids: [item._id] })}>
                      <DoneOutlined />
                    </IconButton>
                  </Hint>
                )
              }
            />
          ))}
        </List>
      )}
      {pages > 1 && (
        <Pagination
          count={pages}
          page={Math.min(page, pages)}
          onChange={(_, next) => setPage(next)}
          sx={{ mt: 2, display: 'flex', justifyContent: 'center' }}
        />
      )}
    </Paper>
  );
}
