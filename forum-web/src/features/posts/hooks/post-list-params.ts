import { ListPostsQuery, type PostSort } from '@forum/contracts';

/**
 * The home list's page and sort as they appear in the address (?page=2&sort=popularity),
 * read with the query-service's own schema; a value it rejects falls back to its default (page 1, newest).
 */
export function parsePostListParams(search: URLSearchParams): ListPostsQuery {
  const { page, sort } = ListPostsQuery.shape;
  const parsedPage = page.safeParse(search.get('page') ?? undefined);
  const parsedSort = sort.safeParse(search.get('sort') ?? undefined);
  return {
    page: parsedPage.success ? parsedPage.data : 1,
    sort: parsedSort.success ? parsedSort.data : 'newest',
  };
}

/** The address for a page and sort; defaults are left out so the home page stays '/'. */
export function postListSearch({ page, sort }: { page: number; sort: PostSort }): URLSearchParams {
  const search = new URLSearchParams();
  if (page > 1) search.set('page', String(page));
  if (sort !== 'newest') search.set('sort', sort);
  return search;
}
