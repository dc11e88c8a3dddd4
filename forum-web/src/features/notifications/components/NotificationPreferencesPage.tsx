import { DELIVERIES_OF, NOTIFICATION_KINDS, type Delivery, type NotificationKind } from '@forum/contracts';
import { Alert, FormControl, FormLabel, MenuItem, Paper, Select, Skeleton, Stack, Typography } from '@mui/material';
import { useId } from 'react';
import { useToast } from '../../../components/toast/ToastProvider';
import { refusalMessage } from '../../../lib/http-error';
import { useGetNotificationPreferencesQuery, useUpdateNotificationPreferencesMutation } from '../api/preferences';

/** Each kind of notification, in plain words. */
const KIND_NAMES: Record<NotificationKind, { name: string; about: string }> = {
  reply: { name: 'Replies', about: 'Someone comments on your post.' },
  'followed-post': { name: 'Posts you follow', about: 'Someone comments on a post you follow (yours and those you commented on, unless you unfollow them).' },
  'followed-tag': { name: 'Tags you follow', about: 'A new post comes in a tag you follow.' },
  mention: { name: 'Mentions', about: 'Someone names you with your @handle.' },
  warning: { name: 'Warnings', about: 'A moderator warns you about something you wrote.' },
  moderation: { name: 'Moderation', about: 'A moderator hides or shows again your post or comment, or suspends your account or lifts it.' },
  announcement: { name: 'Announcements', about: 'The forum announces news.' },
};

/** Each delivery, in plain words. */
const DELIVERY_NAMES: Record<Delivery, string> = {
  app: 'In the app',
  email: 'Email at once',
  digest: 'Daily digest',
  off: 'Off',
};

/** The notification preferences (a dashboard page): how each kind reaches the member, saved as soon as it is chosen. */
export function NotificationPreferencesPage() {
  const { data, isLoading, isError } = useGetNotificationPreferencesQuery();
  const [update, { isLoading: saving }] = useUpdateNotificationPreferencesMutation();
  const toast = useToast();
  const choose = async (kind: NotificationKind, delivery: Delivery) => {
    const result = await update({ [kind]: delivery });
    if ('error' in result) toast({ message: refusalMessage(result.error) ?? 'Your choice was not saved. Try again in a moment.', severity: 'error' });
    else toast({ message: `${KIND_NAMES[kind].name}: ${DELIVERY_NAMES[delivery]}. Saved.` });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="preferences-heading" sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id="preferences-heading" variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        Notification preferences
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
        Choose how each kind of notification reaches you. "Email at once" mails you when you have not seen it in the app within a few minutes.
      </Typography>
      {isError ? (
        <Alert severity="error">Your preferences could not be loaded. Try again in a moment.</Alert>
      ) : isLoading || !data ? (
        <Stack spacing={1} aria-busy="true" aria-label="Loading your preferences">
          {NOTIFICATION_KINDS.map((kind) => (
            <Skeleton key={kind} variant="rounded" height={56} />
          ))}
        </Stack>
      ) : (
        <Stack divider={<Paper variant="outlined" sx={{ border: 0, borderTop: 1, borderColor: 'divider', borderRadius: 0 }} />} spacing={1.5}>
          {NOTIFICATION_KINDS.map((kind) => (
            <PreferenceRow key={kind} kind={kind} delivery={data.preferences[kind]} disabled={saving} onChange={(delivery) => void choose(kind, delivery)} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function PreferenceRow({
  kind,
  delivery,
  disabled,
  onChange,
}: {
  kind: NotificationKind;
  delivery: Delivery;
  disabled: boolean;
  onChange: (delivery: Delivery) => void;
}) {
  const id = useId();
  return (
    <FormControl component="div" sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, alignItems: { sm: 'center' }, gap: 1 }}>
      <Stack sx={{ flex: 1, minWidth: 0 }}>
        <FormLabel id={`${id}-label`} sx={{ fontWeight: 700, color: 'text.primary' }}>
          {KIND_NAMES[kind].name}
        </FormLabel>
        <Typography id={`${id}-about`} variant="body2" color="text.secondary">
          {KIND_NAMES[kind].about}
        </Typography>
      </Stack>
      <Select
        size="small"
        value={delivery}
        disabled={disabled || DELIVERIES_OF[kind].length === 1}
        onChange={(event) => onChange(event.target.value)}
        labelId={`${id}-label`}
        SelectDisplayProps={{ 'aria-describedby': `${id}-about` }}
        sx={{ minWidth: { sm: 180 } }}
      >
        {DELIVERIES_OF[kind].map((option) => (
          <MenuItem key={option} value={option}>
            {DELIVERY_NAMES[option]}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
