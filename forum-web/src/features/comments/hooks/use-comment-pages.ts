import { useGetCommentsInfiniteQuery } from '../api/get-comments';

/** What useCommentPages gives: ShowMoreComments takes it whole. */
export type CommentPages = ReturnType<typeof useCommentPages>;

/** A post's comments as far as they are shown (newest first), how many there are, and the way to the next page. */
export function useCommentPages(postId: string) {
  const query = useGetCommentsInfiniteQuery(postId);
  const pages = query.data?.pages ?? [];
  return {
    comments: pages.flatMap((page) => page.comments),
    pagesRead: pages.length,
    // the newest answer's count: the pages read last know of every comment the first did
    total: pages.at(-1)?.totalCount ?? 0,
    hasMore: query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
    isLoading: query.isLoading,
    isLoadingMore: query.isFetchingNextPage,
    error: query.error,
  };
}
