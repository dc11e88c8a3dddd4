import { Box, Stack, Typography } from '@mui/material';
import { PostList } from '../../features/posts';
import { TagStrip } from '../../features/tags';

/** Spec §2 Home. The tag search form and announcements come with their issues. */
export function HomePage() {
  return (
    <Stack spacing={4}>
      <Box>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '1.75rem', sm: '2.125rem' } }}>
          Welcome to the Forum
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Read what the community is talking about, and browse posts by tag.
        </Typography>
      </Box>
      <TagStrip />
      <PostList />
    </Stack>
  );
}
