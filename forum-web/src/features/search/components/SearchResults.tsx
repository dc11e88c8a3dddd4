import { checkText, ErrorCode, PAGE_SIZE, postPageCount, SEARCH_MATCH_CAP, SEARCH_TEXT_RULE, type SearchPage } from '@forum/contracts';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { PostPager } from '../../../components/PostPager';
import { TextCardSkeleton } from '../../../components/TextCardSkeleton';
import { serverError } from '../../../lib/http-error';
import { usePagedList, usePageParam } from '../../../lib/page-param';
import { useSearchPostsQuery } from '../api/search-posts';
import { SearchResultCard } from './SearchResultCard';

const n = (value: number) => value.toLocaleString('en-US');

/** How many posts a search found, as the page says it ('more than 1,000' when the API stopped counting). */
export function foundText({ totalCount, totalCountCapped }: Pick<SearchPage, 'totalCount' | 'totalCountCapped'>): string {
  if (totalCountCapped) return `More than ${n(SEARCH_MATCH_CAP)} posts found`;
  return totalCount === 1 ? '1 post found' : `${n(totalCount)} posts found`;
}

/**
 * The results page of the bar's search box: the posts whose title or description holds the words
 * `q` (as the address has them), best first, 5 a page, each with its snippet, the words marked.
 * Words the API would refuse (none, too many characters) are explained here, not sent.
 */
export function SearchResults({ q }: { q: string }) {
  const pageParam = usePageParam();
  const { page } = pageParam;
  const verdict = useMemo(() => checkText(q, SEARCH_TEXT_RULE), [q]);
  const words = verdict.ok ? verdict.value : null;
  const { data, currentData, error, isLoading, isFetching, refetch } = useSearchPostsQuery(words === null ? skipToken : { q: words, page });
  const { top, goToPage } = usePagedList<HTMLHeadingElement>(pageParam, currentData?.totalCount);

  return (
    <Box>
      <title>{words ? `${words} · Search · Forum` : 'Search · Forum'}</title>
      <Typography
        ref={top}
        variant="h4"
        component="h1"
        sx={{ fontWeight: 800, mb: 1, overflowWrap: 'anywhere', fontSize: { xs: '1.6rem', sm: '2.125rem' }, scrollMarginTop: 80 }}
      >
        {words ? `Search results for “${words}”` : 'Search posts'}
      </Typography>

      {words === null ? (
        q.trim() === '' ? (
          <Typography color="text.secondary">
            Type a word or two in the search box at the top of the page to search the titles and descriptions of all posts.
          </Typography>
        ) : (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {verdict.ok ? null : `${verdict.message}. Change the words in the search box at the top of the page.`}
          </Alert>
        )
      ) : isLoading || (error && isFetching) ? (
        <Stack spacing={2} aria-busy="true" aria-label="Searching" sx={{ mt: 3 }}>
          {[0, 1, 2].map((i) => (
            <TextCardSkeleton key={i} />
          ))}
        </Stack>
      ) : error ? (
        <SearchFailed error={error} retry={() => void refetch()} />
      ) : data && data.totalCount === 0 ? (
        <Paper variant="outlined" sx={{ py: 5, px: 2, mt: 3, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>No posts match “{words}”.</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Check the spelling, or try other or fewer words.
          </Typography>
        </Paper>
      ) : (
        data && (
          <>
            <Typography role="status" color="text.secondary" sx={{ mb: 3 }}>
              {foundText(data)}
              {data.totalCountCapped && ` · the best matches among the newest ${n(SEARCH_MATCH_CAP)}; more words narrow the search`}
            </Typography>
            <Stack
              component="ul"
              spacing={2}
              aria-label="Search results"
              aria-busy={isFetching}
              sx={{ listStyle: 'none', p: 0, m: 0, opacity: isFetching ? 0.6 : 1, transition: 'opacity 150ms' }}
            >
              {data.posts.map((post) => (
                <li key={post._id}>
                  <SearchResultCard post={post} />
                </li>
              ))}
            </Stack>
            {data.totalCount > PAGE_SIZE && (
              <Box sx={{ mt: 3 }}>
                <PostPager page={page} totalPages={postPageCount(data.totalCount)} onPageChange={goToPage} />
              </Box>
            )}
          </>
        )
      )}
    </Box>
  );
}

/** A search that failed: the search bulkhead's 503 BUSY says to wait a moment; any other failure in plain words. Both can be tried again. */
function SearchFailed({ error, retry }: { error: Parameters<typeof serverError>[0]; retry: () => void }) {
  const server = serverError(error);
  const busy = server?.code === ErrorCode.BUSY;
  const refused = server?.status === 400 ? (server.fields.q?.[0] ?? server.message) : null;
  return (
    <Alert
      severity={busy ? 'warning' : 'error'}
      sx={{ mt: 3 }}
      action={
        refused === null && (
          <Button color="inherit" size="small" onClick={retry}>
            Try again
          </Button>
        )
      }
    >
      {busy ? 'Search is busy, please try again in a moment.' : (refused ?? 'The search did not work. Please try again.')}
    </Alert>
  );
}
