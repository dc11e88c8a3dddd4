import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import { isStaffRole, postPageCount, profilePath } from '@forum/contracts';
import { Alert, Box, Card, CardContent, Chip, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { PersonAvatar } from '@forum/web-ui';
import { NotFoundMessage } from '../../../components/NotFoundMessage';
import { PageHead } from '../../../components/PageHead';
import { PostPager } from '../../../components/PostPager';
import { GOLD } from '../../../components/profile/gold';
import { MemberBadge } from '../../../components/profile/MemberBadge';
import { ProfilePost } from '../../../components/profile/ProfilePost';
import { Statistic } from '../../../components/profile/Statistic';
import { FormattedDate } from '../../../components/FormattedDate';
import { isNotFound } from '../../../lib/http-error';
import { pagedPath, usePagedList, usePageParam } from '../../../lib/page-param';
import { useGetPublicProfileQuery } from '../api/get-public-profile';

/** A member nobody can see: erased (their name reads 'Deleted user' everywhere), or never there. */
export const MemberNotFound = () => (
  <NotFoundMessage title="Member not found" message="There is no member here: the link is wrong, or the account was deleted." />
);

/**
 * /u/:id (or /u/@handle): a member's public page: photo, name, handle, when they joined, their badge
 * (Gold or Bronze, as My Profile shows) and the staff one, their counts and their posts, newest first, a page at a time (`?page=`).
 */
export function PublicProfilePage({ id }: { id: string }) {
  const pageParam = usePageParam();
  const { data, currentData, error, isLoading } = useGetPublicProfileQuery({ id, page: pageParam.page });
  const { top, goToPage } = usePagedList<HTMLHeadingElement>(pageParam, currentData?.totalCount);

  if (isLoading) return <ProfileSkeleton />;
  if (isNotFound(error)) return <MemberNotFound />;
  if (!data) return <Alert severity="error">This profile could not be loaded. Try again in a moment.</Alert>;

  const { user, stats, posts, totalCount } = data;
  const gold = user.badge === 'Gold';
  return (
    <Stack spacing={3}>
      <PageHead
        title={user.name}
        description={`${user.name}'s posts on the forum.`}
        path={pagedPath(profilePath(id), pageParam.page)}
        page={pageParam.page}
        type="profile"
      />
      <Card component="section" aria-labelledby="profile-name">
        <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: 'center' }}>
            <PersonAvatar
              name={user.name}
              photo={user.photoURL}
              alt={`Photo of ${user.name}`}
              size={112}
              sx={{ border: 3, borderColor: gold ? GOLD : 'divider' }}
            />
            <Stack spacing={1} sx={{ flex: 1, minWidth: 0, alignItems: { xs: 'center', sm: 'flex-start' }, textAlign: { xs: 'center', sm: 'left' } }}>
              <Typography
                id="profile-name"
                variant="h4"
                component="h1"
                sx={{ fontWeight: 800, overflowWrap: 'anywhere', fontSize: { xs: '1.75rem', sm: '2.125rem' } }}
              >
                {user.name}
              </Typography>
              {user.handle && (
                <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  @{user.handle}
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                Joined{' '}
                <time dateTime={user.registeredAt}>
                  <FormattedDate value={user.registeredAt} />
                </time>
              </Typography>
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', justifyContent: 'center', rowGap: 1 }}>
                <MemberBadge badge={user.badge} />
                {/* staff are told apart: an admin is Staff, a moderator Moderator */}
                {isStaffRole(user.role) && (
                  <Chip
                    icon={<ShieldOutlined />}
                    label={user.role === 'admin' ? 'Staff' : 'Moderator'}
                    color="primary"
                    variant="outlined"
                    sx={{ fontWeight: 700 }}
                  />
                )}
              </Stack>
            </Stack>
          </Stack>
        </CardContent>
      </Card>

      <Box component="section" aria-labelledby="stats-heading">
        <Typography id="stats-heading" variant="h6" component="h2" sx={{ mb: 1.5, fontWeight: 700 }}>
          Statistics
        </Typography>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, 1fr)' }, gap: { xs: 1, sm: 2 } }}>
          <Statistic label="Posts" value={stats.posts} />
          <Statistic label="Comments" value={stats.comments} />
          <Statistic label="Comments received" value={stats.commentsReceived} />
          <Statistic label="Up votes received" value={stats.upVotes} />
        </Box>
      </Box>

      <Box component="section" aria-labelledby="posts-heading">
        <Typography ref={top} id="posts-heading" variant="h6" component="h2" sx={{ mb: 1.5, fontWeight: 700, scrollMarginTop: 80 }}>
          Posts
        </Typography>
        {posts.length === 0 ? (
          <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
            <Typography color="text.secondary">No posts yet.</Typography>
          </Paper>
        ) : (
          <Stack spacing={1.5}>
            {posts.map((post) => (
              <ProfilePost key={post._id} post={post} />
            ))}
          </Stack>
        )}
        {totalCount > posts.length && (
          <Box sx={{ mt: 2 }}>
            <PostPager page={pageParam.page} totalPages={postPageCount(totalCount)} onPageChange={goToPage} />
          </Box>
        )}
      </Box>
    </Stack>
  );
}

function ProfileSkeleton() {
  return (
    <Stack spacing={3} aria-busy="true" aria-label="Loading the profile">
      <Skeleton variant="rounded" height={160} />
      <Skeleton variant="rounded" height={96} />
      <Skeleton variant="rounded" height={180} />
    </Stack>
  );
}
