import { PAGE_SIZE, postPageCount, tagPagePath } from '@forum/contracts';
import { PageHead } from '../../../components/PageHead';
import { postPath } from '../../../lib/paths';
import { Box, Card, CardContent, Grid, Link, Paper, Typography } from '@mui/material';
import { useEffect, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PostPager } from '../../../components/PostPager';
import { TagList } from '../../../components/TagChip';
import { TextCardSkeleton } from '../../../components/TextCardSkeleton';
import { pagedPath, usePagedList, usePageParam } from '../../../lib/page-param';
import { useForumTag } from '../../../lib/tags';
import { useGetTaggedPostsQuery } from '../../../lib/tagged-posts';

/**
 * Spec §2 Tag page: 'Posts Tagged with: #tag' and the posts as two columns of cards (title, summary,
 * tags), 5 a page like the home list, the page in the address. `action` (Follow) stands under the heading.
 */
export function TaggedPosts({ tag: asked, action }: { tag: string; action?: (tag: string) => ReactNode }) {
  const pageParam = usePageParam();
  const { page } = pageParam;
  const { data, currentData, error, isLoading, isFetching } = useGetTaggedPostsQuery({ tag: asked, page });
  const { top, goToPage } = usePagedList<HTMLHeadingElement>(pageParam, currentData?.totalCount);

  // Spec §8: a failed search is silent for the reader (console only).
  useEffect(() => {
    if (error) console.error('Loading the posts of a tag failed', error);
  }, [error]);

  const posts = error ? [] : (data?.posts ?? []);
  const total = error ? 0 : (data?.totalCount ?? 0);
  const tag = useForumTag(asked, posts);
  return (
    <Box>
      <PageHead title={`#${tag}`} description={`Posts tagged ${tag} on the forum.`} path={pagedPath(tagPagePath(tag), page)} page={page} />
      <Typography
        ref={top}
        variant="h4"
        component="h1"
        sx={{ fontWeight: 800, mb: 1, overflowWrap: 'anywhere', fontSize: { xs: '1.6rem', sm: '2.125rem' }, scrollMarginTop: 80 }}
      >
        Posts Tagged with:{' '}
        <Box component="span" sx={{ color: 'primary.main' }}>
          #{tag}
        </Box>
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2, mb: 3 }}>
        {total > 0 && <Typography color="text.secondary">{total === 1 ? '1 post' : `${total.toLocaleString('en-US')} posts`}</Typography>}
        {action?.(tag)}
      </Box>

      {isLoading ? (
        <Grid container spacing={2} aria-busy="true" aria-label="Loading posts" sx={{ mt: 3 }}>
          {Array.from({ length: PAGE_SIZE }, (_, i) => (
            <Grid key={i} size={{ xs: 12, sm: 6 }}>
              <TextCardSkeleton />
            </Grid>
          ))}
        </Grid>
      ) : posts.length === 0 ? (
        <Paper variant="outlined" sx={{ py: 6, mt: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">No posts found.</Typography>
        </Paper>
      ) : (
        <Grid
          container
          spacing={2}
          component="ul"
          aria-busy={isFetching}
          sx={{ listStyle: 'none', p: 0, m: 0, opacity: isFetching ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
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

      {total > 0 && (
        <Box sx={{ mt: 3 }}>
          <PostPager page={page} totalPages={postPageCount(total)} onPageChange={goToPage} />
        </Box>
      )}
    </Box>
  );
}
