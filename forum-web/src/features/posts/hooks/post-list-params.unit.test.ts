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

  it('writes only what differs from the defaults', () => {
    expect(postListSearch({ page: 1, sort: 'newest' }).toString()).toBe('');
    expect(postListSearch({ page: 2, sort: 'popularity' }).toString()).toBe('page=2&sort=popularity');
  });
});
