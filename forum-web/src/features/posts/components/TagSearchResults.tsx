import { Alert, Box, Chip, CircularProgress, Link, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { AuthorName } from '../../../components/AuthorName';
import { useForumTag } from '../../../lib/tags';
import { useGetTaggedPostsQuery } from '../../../lib/tagged-posts';
import { postPath } from '../../../lib/paths';

/** The results of the home page's search by tag (its own chunk): title, author and tags of each post. */
export default function TagSearchResults({ tag: asked }: { tag: string }) {
  const { data, isFetching, isError } = useGetTaggedPostsQuery({ tag: asked, page: 1 });
  const tag = useForumTag(asked, data?.posts);
  return (
    <Box sx={{ mt: 2 }} aria-live="polite">
      {isFetching ? (
        <CircularProgress size={24} aria-label="Searching" />
      ) : isError ? (
        <Alert severity="error">The search did not work. Please try again.</Alert>
      ) : data && data.posts.length === 0 ? (
        <Typography color="text.secondary">No posts found.</Typography>
      ) : (
        data && (
          <>
            <Typography variant="body2" color="text.secondary">
              {data.totalCount === 1 ? '1 post' : `${data.totalCount} posts`} tagged #{tag}
              {data.totalCount > data.posts.length && (
                <>
                  {' '}
                  ·{' '}
                  <Link component={RouterLink} to={`/tags/${encodeURIComponent(tag)}`}>
                    See them all
                  </Link>
                </>
              )}
            </Typography>
            <List dense aria-label={`Posts tagged ${tag}`}>
              {data.posts.map((post) => (
                <ListItem key={post._id} disableGutters>
                  <ListItemText
                    primary={
                      <Link component={RouterLink} to={postPath(post._id)} sx={{ fontWeight: 600 }}>
                        {post.title}
                      </Link>
                    }
                    secondary={
                      <Stack component="span" direction="row" spacing={0.75} sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 0.5 }} useFlexGap>
                        <Typography component="span" variant="caption">
                          by <AuthorName name={post.authorName} authorId={post.authorId} underline="always" />
                        </Typography>
                        {post.tags.map((t) => (
                          <Chip key={t} component="span" label={`#${t}`} size="small" variant="outlined" />
                        ))}
                      </Stack>
                    }
                    slotProps={{ secondary: { component: 'div' } }}
                  />
                </ListItem>
              ))}
            </List>
          </>
        )
      )}
    </Box>
  );
}
