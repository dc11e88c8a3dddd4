import type { PostListItem } from '@forum/contracts';
import { Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { FormattedDate } from '../FormattedDate';
import { PostStats } from '../PostStats';

/** A post in a profile's list: its title (a link), date and counts. */
export function ProfilePost({ post }: { post: PostListItem }) {
  return (
    <Card component="article">
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Box sx={{ minWidth: 0 }}>
            <Link
              component={RouterLink}
              to={`/post/${encodeURIComponent(post._id)}`}
              variant="subtitle1"
              sx={{ display: 'inline-block', fontWeight: 600, lineHeight: 1.4, overflowWrap: 'anywhere' }}
            >
              {post.title}
            </Link>
            <Typography variant="caption" color="text.secondary" component="time" dateTime={post.createdAt} sx={{ display: 'block' }}>
              <FormattedDate value={post.createdAt} />
            </Typography>
          </Box>
          <PostStats upVote={post.upVote} downVote={post.downVote} commentCount={post.commentCount} />
        </Stack>
      </CardContent>
    </Card>
  );
}
