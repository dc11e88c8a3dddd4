import { ListPostsQuery } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { parsePostListParams, postListSearch } from './post-list-params';

describe('home list address', () => {
  it('defaults to page 1, newest', () => {
    expect(parsePostListParams(new URLSearchParams(''))).toEqual({ page: 1, sort: 'newest' });
  });

  it('reads page and sort', () => {
    expect(parsePostListParams(new URLSearchParams('page=3&sort=popularity'))).toEqual({ page: 3, sort: 'popularity' });
  });

  it('falls back to the defaults for a page or sort the query-service would reject', () => {
    expect(parsePostListParams(new URLSearchParams('page=0'))).toEqual({ page: 1, sort: 'newest' });
    expect(parsePostListParams(new URLSearchParams('page=x&sort=oldest'))).toEqual({ page: 1, sort: 'newest' });
    expect(parsePostListParams(new URLSearchParams('page=2.5&sort=popularity'))).toEqual({ page: 1, sort: 'popularity' });
  });

  it("reads a page and sort exactly as the query-service's schema does, for every kind of value", () => {
    const pages = [null, '', ' ', '1', '2', ' 3 ', '007', '0', '-1', '2.5', '1e2', '0x10', 'x', 'Infinity', '9007199254740993'];
    const sorts = [null, '', 'newest', 'popularity', 'Popularity', 'oldest'];
    for (const page of pages) {
      for (const sort of sorts) {
        const search = new URLSearchParams();
        if (page !== null) search.set('page', page);
        if (sort !== null) search.set('sort', sort);
        const schema = ListPostsQuery.shape;
        const expected = {
          page: schema.page.safeParse(page ?? undefined).data ?? 1,
          sort: schema.sort.safeParse(sort ?? undefined).data ?? 'newest',
        };
        expect(parsePostListParams(search), `page=${page} sort=${sort}`).toEqual(expected);
      }
    }
  });

  it('writes only what differs from the defaults', () => {
    expect(postListSearch({ page: 1, sort: 'newest' }).toString()).toBe('');
    expect(postListSearch({ page: 2, sort: 'popularity' }).toString()).toBe('page=2&sort=popularity');
  });
});
