import { RECENT_POSTS, type UpdateMeRequest } from '@forum/contracts';
import PhotoCamera from '@mui/icons-material/PhotoCameraOutlined';
import { Alert, Box, Button, Card, CardContent, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PersonAvatar } from '@forum/web-ui';
import { GOLD } from '../../../components/profile/gold';
import { MemberBadge } from '../../../components/profile/MemberBadge';
import { ProfilePost } from '../../../components/profile/ProfilePost';
import { Statistic } from '../../../components/profile/Statistic';
import { useAuthState } from '../../../lib/auth';
import { useGetMeQuery } from '../api/get-me';
import { useGetProfileQuery } from '../api/get-profile';
import { ChangeHandle } from './ChangeHandle';
import { ChangePhotoDialog } from './ChangePhotoDialog';
import { DeleteAccountDialog } from './DeleteAccountDialog';

/** Spec §2 My Profile: photo, name, handle, email, Change Photo, the badge, three statistics and the recent posts; the handle is changed here. */
export function MyProfile() {
  const { user } = useAuthState();
  const email = user?.email ?? '';
  const { data: profile, isLoading, isError } = useGetProfileQuery(email, { skip: !email });
  const account = useGetMeQuery(undefined, { skip: !user });
  const [changing, setChanging] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // shown at once; the profile read after the change carries the same values
  const [changed, setChanged] = useState<UpdateMeRequest>({});

  if (isLoading) return <ProfileSkeleton />;
  if (isError || !profile) return <Alert severity="error">Your profile could not be loaded. Please try again later.</Alert>;

  const { user: me, stats, recentPosts } = profile;
  const photo = changed.photoURL ?? me.photoURL;
  const name = changed.displayName ?? me.name;
  const gold = me.badge === 'Gold';
  const handle = changed.handle ?? account.data?.handle ?? null;

  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
        My Profile
      </Typography>
      {user && !user.emailVerified && (
        <Alert severity="info">Please confirm your email address: we sent a link to {user.email}. Open it to finish setting up your account.</Alert>
      )}
      <Card>
        <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: 'center' }}>
            <PersonAvatar name={name} photo={photo} alt={`Photo of ${name}`} size={112} sx={{ border: 3, borderColor: gold ? GOLD : 'divider' }} />
            <Stack spacing={1} sx={{ flex: 1, minWidth: 0, alignItems: { xs: 'center', sm: 'flex-start' }, textAlign: { xs: 'center', sm: 'left' } }}>
              <Typography variant="h5" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                {name}
              </Typography>
              {handle && <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>@{handle}</Typography>}
              <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {me.email ?? email}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', justifyContent: 'center', rowGap: 1 }}>
                <MemberBadge badge={me.badge} />
              </Stack>
              <Button variant="outlined" startIcon={<PhotoCamera />} onClick={() => setChanging(true)} sx={{ mt: 1 }}>
                Change Photo
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      {changing && (
        <ChangePhotoDialog
          open
          current={{ photoURL: photo, name }}
          onClose={() => setChanging(false)}
          onChanged={(changes) => setChanged((before) => ({ ...before, ...changes }))}
        />
      )}

      <Box component="section" aria-labelledby="handle-heading">
        <Typography id="handle-heading" variant="h6" component="h2" sx={{ mb: 1.5, fontWeight: 700 }}>
          Handle
        </Typography>
        {account.isLoading ? (
          <Skeleton variant="rounded" height={56} />
        ) : account.data ? (
          <ChangeHandle key={account.data.handle} current={handle} onChanged={(saved) => setChanged((before) => ({ ...before, handle: saved }))} />
        ) : (
          <Alert severity="error">Your handle could not be loaded. Please try again later.</Alert>
        )}
      </Box>

      <Box component="section" aria-labelledby="stats-heading">
        <Typography id="stats-heading" variant="h6" component="h2" sx={{ mb: 1.5, fontWeight: 700 }}>
          Statistics
        </Typography>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: { xs: 1, sm: 2 } }}>
          <Statistic label="Posts" value={stats.posts} />
          <Statistic label="Comments received" value={stats.commentsReceived} />
          <Statistic label="Up votes received" value={stats.upVotes} />
        </Box>
      </Box>

      <Box component="section" aria-labelledby="recent-heading">
        <Typography id="recent-heading" variant="h6" component="h2" sx={{ mb: 1.5, fontWeight: 700 }}>
          Recent posts
        </Typography>
        {recentPosts.length === 0 ? (
          <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
            <Typography color="text.secondary">You have not written any posts yet.</Typography>
            <Button component={RouterLink} to="/dashboard/add-post" sx={{ mt: 1 }}>
              Add Post
            </Button>
          </Paper>
        ) : (
          <Stack spacing={1.5}>
            {recentPosts.slice(0, RECENT_POSTS).map((post) => (
              <ProfilePost key={post._id} post={post} />
            ))}
          </Stack>
        )}
      </Box>

      <Box component="section" aria-labelledby="delete-heading">
        <Typography id="delete-heading" variant="h6" component="h2" sx={{ mb: 1.5, fontWeight: 700 }}>
          Delete account
        </Typography>
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, borderColor: 'error.light' }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
            <Typography color="text.secondary">
              Erase your account and your personal data from the forum. You choose what happens to your posts and comments.
            </Typography>
            <Button variant="outlined" color="error" onClick={() => setDeleting(true)} sx={{ flexShrink: 0 }}>
              Delete my account
            </Button>
          </Stack>
        </Paper>
      </Box>
      {deleting && <DeleteAccountDialog open onClose={() => setDeleting(false)} />}
    </Stack>
  );
}

function ProfileSkeleton() {
  return (
    <Stack spacing={3} aria-busy="true" aria-label="Loading your profile">
      <Skeleton variant="text" width={200} height={48} />
      <Skeleton variant="rounded" height={160} />
      <Skeleton variant="rounded" height={96} />
      <Skeleton variant="rounded" height={180} />
    </Stack>
  );
}
