import type { PostSort } from '@forum/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parsePostListParams, postListSearch } from './post-list-params';

/** Page and sort of the home list, kept in the address so Back and shared links work. */
export function usePostListParams() {
  const [search, setSearch] = useSearchParams();
  const { page, sort } = useMemo(() => parsePostListParams(search), [search]);

  const setPage = useCallback((next: number, options?: { replace?: boolean }) => setSearch(postListSearch({ page: next, sort }), options), [setSearch, sort]);
  // Spec §4: changing the sort starts again from page 1.
  const setSort = useCallback((next: PostSort) => setSearch(postListSearch({ page: 1, sort: next })), [setSearch]);

  return { page, sort, setPage, setSort };
}

/** The home list's address as it stands (`/`, `/?page=2&sort=popularity`): its page's canonical address; and its page. */
export function useHomeListPath(): { path: string; page: number } {
  const { page, sort } = usePostListParams();
  const search = postListSearch({ page, sort }).toString();
  return { path: search ? `/?${search}` : '/', page };
}
