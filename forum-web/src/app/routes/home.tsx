import { Box, Stack, Typography } from '@mui/material';
import { Announcements } from '../../features/notifications';
import { useGetAnnouncementsQuery } from '../../features/notifications/api/get-announcements';
import { PostList, TagSearch, useHomeListPath } from '../../features/posts';
import { TagStrip } from '../../features/tags';
import { PageHead } from '../../components/PageHead';

/** Spec §2 Home: search by tag, the tag strip, announcements, the post list. */
export function HomePage() {
  // the same request as the announcements block's (one answer for both)
  const announcementsLoading = useGetAnnouncementsQuery().isLoading;
  const { path, page } = useHomeListPath();
  return (
    <Stack spacing={4}>
      <PageHead title="Home" description="A community forum: browse posts by tag, read, write, comment and vote." path={path} page={page} />
      <Box>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '1.75rem', sm: '2.125rem' } }}>
          Welcome to the Forum
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Read what the community is talking about, and browse posts by tag.
        </Typography>
      </Box>
      <TagSearch />
      <TagStrip />
      <Announcements />
      {/*
        no box until the announcements have answered (their request and the list's go out together): they come in above the
        list, and a list already laid out would move down under the reader's eyes (a layout shift)
      */}
      <Box sx={{ display: announcementsLoading ? 'none' : undefined }}>
        <PostList />
      </Box>
    </Stack>
  );
}
