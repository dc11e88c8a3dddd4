import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A page number of the address (`?page=3`), read as the query-service reads one: a safe whole number from 1; anything else is page 1. */
export function parsePage(value: string | null): number {
  const page = Number(value ?? undefined);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

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
