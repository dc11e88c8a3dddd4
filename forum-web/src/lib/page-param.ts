import { DECIMAL_INTEGER, postPageCount } from '@forum/contracts';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A page number of the address (`?page=3`), read as the query-service reads one: decimal digits making a safe whole number from 1; anything else is page 1. */
export function parsePage(value: string | null): number {
  if (value === null || !DECIMAL_INTEGER.test(value)) return 1;
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** The address of page `page` of the list at `path` (`?page=`, left out for page 1): a later page's canonical address. */
export const pagedPath = (path: string, page: number) => (page > 1 ? `${path}?page=${page}` : path);

/** The page of a paged list kept in the address (`?page=`, left out for page 1), beside the address's other parameters, so Back and shared links work. */
export function usePageParam() {
  const [search, setSearch] = useSearchParams();
  const page = useMemo(() => parsePage(search.get('page')), [search]);
  const setPage = useCallback(
    (next: number, options?: { replace?: boolean }) =>
      setSearch((current) => {
        const updated = new URLSearchParams(current);
        if (next > 1) updated.set('page', String(next));
        else updated.delete('page');
        return updated;
      }, options),
    [setSearch],
  );
  return { page, setPage };
}

/**
 * A paged list of posts under `param` (usePageParam): the page is clamped to the pages `total` makes
 * once an answer says it (a stale link, posts deleted meanwhile), and `goToPage` brings `top`, the
 * list's heading, into view with the new page.
 */
export function usePagedList<E extends HTMLElement>({ page, setPage }: ReturnType<typeof usePageParam>, total: number | undefined) {
  useEffect(() => {
    if (total !== undefined && page > postPageCount(total)) setPage(postPageCount(total), { replace: true });
  }, [total, page, setPage]);
  const top = useRef<E>(null);
  const goToPage = useCallback(
    (next: number) => {
      setPage(next);
      top.current?.scrollIntoView({ block: 'start' });
    },
    [setPage],
  );
  return { top, goToPage };
}
