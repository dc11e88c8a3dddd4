import { POST_SORTS, type ListPostsQuery, type PostSort } from '@forum/contracts';
import { parsePage } from '../../../lib/page-param';

/**
 * The home list's page and sort as they appear in the address (?page=2&sort=popularity), read
 * as the query-service reads them (a safe whole number from 1; one of POST_SORTS); anything else
 * falls back to the default (page 1, newest). Plain code rather than the contract's zod schema,
 * which the home page does not load before it first renders.
 */
export function parsePostListParams(search: URLSearchParams): ListPostsQuery {
  const sort = search.get('sort');
  return {
    page: parsePage(search.get('page')),
    sort: POST_SORTS.find((known) => known === sort) ?? 'newest',
  };
}

/** The address for a page and sort; defaults are left out so the home page stays '/'. */
export function postListSearch({ page, sort }: { page: number; sort: PostSort }): URLSearchParams {
  const search = new URLSearchParams();
  if (page > 1) search.set('page', String(page));
  if (sort !== 'newest') search.set('sort', sort);
  return search;
}
