import { Box, Card, CardContent, Grid, Link, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { TagList } from '../../../components/TagChip';
import { useForumTag } from '../../../lib/tags';
import { useGetTaggedPostsQuery } from '../api/get-tagged-posts';

const postPath = (id: string) => `/post/${encodeURIComponent(id)}`;

/** Spec §2 Tag page: 'Posts Tagged with: #tag' and the posts as two columns of cards (title, summary, tags). */
export function TaggedPosts({ tag: asked }: { tag: string }) {
  const { data, error, isLoading, isFetching } = useGetTaggedPostsQuery(asked);

  // Spec §8: a failed search is silent for the reader (console only).
  useEffect(() => {
    if (error) console.error('Loading the posts of a tag failed', error);
  }, [error]);

  const posts = error ? [] : (data?.posts ?? []);
  const tag = useForumTag(asked, posts);
  return (
    <Box>
      <title>{`#${tag} · Forum`}</title>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 1, overflowWrap: 'anywhere', fontSize: { xs: '1.6rem', sm: '2.125rem' } }}>
        Posts Tagged with: <Box component="span" sx={{ color: 'primary.main' }}>#{tag}</Box>
      </Typography>
      {data && posts.length > 0 && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {data.total > posts.length
            ? `The newest ${posts.length} of ${data.total} posts.`
            : `${posts.length} ${posts.length === 1 ? 'post' : 'posts'}`}
        </Typography>
      )}

      {isLoading ? (
        <Grid container spacing={2} aria-busy="true" aria-label="Loading posts" sx={{ mt: 3 }}>
          {[0, 1, 2, 3].map((i) => (
            <Grid key={i} size={{ xs: 12, sm: 6 }}>
              <Card aria-hidden>
                <CardContent>
                  <Skeleton sx={{ fontSize: '1.4rem' }} width="70%" />
                  <Skeleton width="95%" />
                  <Skeleton width="60%" />
                  <Skeleton width="30%" sx={{ mt: 1.5 }} />
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      ) : posts.length === 0 ? (
        <Paper variant="outlined" sx={{ py: 6, mt: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">No posts found.</Typography>
        </Paper>
      ) : (
        <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0, opacity: isFetching ? 0.6 : 1, transition: 'opacity 150ms' }}>
          {posts.map((post) => (
            <Grid key={post._id} size={{ xs: 12, sm: 6 }} component="li" sx={{ display: 'flex' }}>
              <Card
                component="article"
                sx={{
                  flex: 1,
                  display: 'flex',
                  flexDirection: 'column',
                  transition: 'border-color 150ms, box-shadow 150ms',
                  '&:hover': { borderColor: 'primary.light', boxShadow: 3 },
                }}
              >
                <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
                  <Typography variant="h6" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
                    <Link component={RouterLink} to={postPath(post._id)} color="inherit" underline="hover">
                      {post.title}
                    </Link>
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1, flex: 1, overflowWrap: 'anywhere' }}>
                    {post.summary}
                  </Typography>
                  <TagList tags={post.tags} sx={{ mt: 2 }} />
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      )}
    </Box>
  );
}
