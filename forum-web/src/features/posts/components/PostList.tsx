import { PAGE_SIZE, postPageCount } from '@forum/contracts';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { readAfter, useApiDispatch } from '../../../lib/api';
import { getPostsApi, useGetPostsQuery } from '../api/get-posts';
import { useNewPosts } from '../hooks/use-new-posts';
import { usePostListParams } from '../hooks/use-post-list-params';
import { NewPostsBar } from './NewPostsBar';
import { PostCard, PostCardSkeleton } from './PostCard';
import { PostPager } from '../../../components/PostPager';
import { usePagedList } from '../../../lib/page-param';
import { SortSelect } from './SortSelect';

/**
 * The home post list (spec §2 Home): sort selector, a page of cards, Prev / Next. Posts written
 * meanwhile are not put into the list under the reader: 'N new posts' says they are there, and
 * shows the first page of the newest when pressed (where new posts are, whatever page or sort the
 * reader was at). A shown post deleted meanwhile stays in its place, marked. The first page, in either
 * sort, starts with the posts staff pinned (`pinned`), each marked.
 */
export function PostList() {
  const { page, sort, setPage, setSort } = usePostListParams();
  const { data, currentData, error, isError, isLoading, isFetching, startedTimeStamp } = useGetPostsQuery({ page, sort });
  const dispatch = useApiDispatch();
  const newestFirst = page === 1 && sort === 'newest';
  const newPosts = useNewPosts(currentData?.posts.map((post) => post._id) ?? [], newestFirst && currentData ? startedTimeStamp : undefined);

  // Spec §8: a failed load is silent for the reader (console only) and empties the list.
  useEffect(() => {
    if (error) console.error('Loading posts failed', error);
  }, [error]);

  const totalPages = postPageCount(isError ? 0 : (data?.totalCount ?? 0));

  // Spec §4: the page is clamped to the pages that exist (a stale link, posts deleted meanwhile).
  const { top: sectionRef, goToPage } = usePagedList<HTMLElement>({ page, setPage }, currentData?.totalCount);

  const posts = isError ? [] : [...(data?.pinned ?? []), ...(data?.posts ?? [])];
  const headingRef = useRef<HTMLHeadingElement>(null);
  const showNewPosts = () => {
    if (newPosts.position) readAfter('getPosts', newPosts.position);
    dispatch(getPostsApi.util.prefetch('getPosts', { page: 1, sort: 'newest' }, { force: true }));
    newPosts.taken();
    if (!newestFirst) setSort('newest');
    // the button goes: the keyboard's focus goes to the top of the list, where the new posts come
    headingRef.current?.focus();
    sectionRef.current?.scrollIntoView({ block: 'start' });
  };

  return (
    <Box component="section" ref={sectionRef} aria-labelledby="posts-heading" sx={{ scrollMarginTop: 80 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 2 }}>
          <Typography id="posts-heading" ref={headingRef} tabIndex={-1} variant="h5" component="h2" sx={{ fontWeight: 700, outline: 'none' }}>
            Posts
          </Typography>
          <NewPostsBar count={newPosts.count} onShow={showNewPosts} />
        </Stack>
        <SortSelect value={sort} onChange={setSort} />
      </Stack>

      {isLoading ? (
        <Stack spacing={2} aria-busy="true" aria-label="Loading posts">
          {Array.from({ length: PAGE_SIZE }, (_, i) => (
            <PostCardSkeleton key={i} />
          ))}
        </Stack>
      ) : posts.length === 0 ? (
        <Paper variant="outlined" sx={{ py: 6, textAlign: 'center' }}>
          <Typography color="text.secondary">No posts found.</Typography>
        </Paper>
      ) : (
        <Stack spacing={2} aria-busy={isFetching} sx={{ opacity: isFetching ? 0.6 : 1, transition: 'opacity 150ms' }}>
          {posts.map((post) => (
            <PostCard key={post._id} post={post} deleted={newPosts.deleted.has(post._id)} />
          ))}
        </Stack>
      )}

      <Box sx={{ mt: 3 }}>
        <PostPager page={page} totalPages={totalPages} onPageChange={goToPage} />
      </Box>
    </Box>
  );
}
