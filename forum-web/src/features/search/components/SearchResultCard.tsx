import type { SearchResult } from '@forum/contracts';
import { postPath } from '../../../lib/paths';
import { Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { PersonAvatar } from '@forum/web-ui';
import { AuthorName } from '../../../components/AuthorName';
import { TagList } from '../../../components/TagChip';
import { formatDate } from '../../../lib/format';
import { Highlighted } from './Highlighted';

/** One post a search found: its title (the link to it) and snippet with the words found marked, its author and tags. */
export function SearchResultCard({ post }: { post: SearchResult }) {
  return (
    <Card component="article" sx={{ transition: 'border-color 150ms, box-shadow 150ms', '&:hover': { borderColor: 'primary.light', boxShadow: 3 } }}>
      <CardContent sx={{ p: { xs: 2, sm: 2.5 } }}>
        <Typography variant="h6" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
          <Link component={RouterLink} to={postPath(post._id)} color="inherit" underline="hover">
            <Highlighted runs={post.snippet.title} />
          </Link>
        </Typography>
        {post.snippet.description.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
            <Highlighted runs={post.snippet.description} />
          </Typography>
        )}
        <Stack direction="row" spacing={1.5} sx={{ mt: 2, alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mr: 'auto' }}>
            <PersonAvatar name={post.authorName} photo={post.authorPhoto} size={28} />
            <Box>
              <AuthorName name={post.authorName} authorId={post.authorId} variant="body2" sx={{ fontWeight: 600 }} />
              <Typography variant="caption" color="text.secondary" component="time" dateTime={post.createdAt} sx={{ ml: 1 }}>
                {formatDate(post.createdAt)}
              </Typography>
            </Box>
          </Stack>
          <TagList tags={post.tags} />
        </Stack>
      </CardContent>
    </Card>
  );
}
