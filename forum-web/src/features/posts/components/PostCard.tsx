import { FALLBACK_TAG, type PostListItem } from '@forum/contracts';
import { postPath } from '../../../lib/paths';
import { Box, Card, CardContent, Chip, Link, Skeleton, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { PersonAvatar } from '@forum/web-ui';
import { AuthorName } from '../../../components/AuthorName';
import { PostMarks } from '../../../components/ModerationMarks';
import { PostStats } from '../../../components/PostStats';
import { roomForRing } from '../../../lib/focus-ring';
import { FormattedDate } from '../../../components/FormattedDate';

/**
 * One post of the home list. The title is the link; its ::after covers the card,
 * so the whole card is clickable while the link's name stays the title. A post deleted since
 * the list was read keeps its place, marked (the list does not move under the reader). Staff's marks
 * (pinned, locked) show under the summary.
 */
export function PostCard({ post, deleted = false }: { post: PostListItem; deleted?: boolean }) {
  const tag = post.tags[0] ?? FALLBACK_TAG;
  return (
    <Card
      component="article"
      sx={{
        position: 'relative',
        transition: 'border-color 150ms, box-shadow 150ms',
        '&:hover': { borderColor: 'primary.light', boxShadow: 3 },
        '&:focus-within': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 },
      }}
    >
      <CardContent sx={{ p: { xs: 2, sm: 2.5 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <PersonAvatar name={post.authorName} photo={post.authorPhoto} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <AuthorName
              name={post.authorName}
              authorId={post.authorId}
              variant="subtitle2"
              component="p"
              sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', ...roomForRing }}
            />
            <Typography variant="caption" color="text.secondary" component="time" dateTime={post.createdAt}>
              <FormattedDate value={post.createdAt} />
            </Typography>
          </Box>
          <Chip label={tag} size="small" color="primary" variant="outlined" />
        </Stack>
        <Typography variant="h6" component="h3" sx={{ mt: 1.5, fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
          <Link
            component={RouterLink}
            to={postPath(post._id)}
            color="inherit"
            underline="none"
            sx={{ '&::after': { content: '""', position: 'absolute', inset: 0 }, '&:focus-visible': { outline: 'none' } }}
          >
            {post.title}
          </Link>
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.75, overflowWrap: 'anywhere' }}>
          {post.summary}
        </Typography>
        <Stack direction="row" sx={{ mt: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          {deleted ? (
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              This post has been deleted.
            </Typography>
          ) : (
            <PostStats upVote={post.upVote} downVote={post.downVote} commentCount={post.commentCount} />
          )}
          <PostMarks pinned={post.pinned} locked={post.locked} />
        </Stack>
      </CardContent>
    </Card>
  );
}

export function PostCardSkeleton() {
  return (
    <Card aria-hidden>
      <CardContent sx={{ p: { xs: 2, sm: 2.5 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <Skeleton variant="circular" width={40} height={40} />
          <Box sx={{ flex: 1 }}>
            <Skeleton width="30%" />
            <Skeleton width="20%" />
          </Box>
        </Stack>
        <Skeleton variant="text" sx={{ mt: 1.5, fontSize: '1.4rem' }} width="70%" />
        <Skeleton width="95%" />
        <Skeleton width="40%" sx={{ mt: 2 }} />
      </CardContent>
    </Card>
  );
}
