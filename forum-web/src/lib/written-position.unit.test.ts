// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@forum/web-ui/testing';

/** The app's store and api as a page load makes them: modules read anew, as after a reload. */
async function loadPage() {
  vi.resetModules();
  const [{ makeStore }, { api }] = await Promise.all([import('../app/store'), import('./api')]);
  const endpoints = api.injectEndpoints({
    endpoints: (build) => ({
      write: build.mutation<unknown, void>({ query: () => ({ url: 'comments', method: 'POST', body: {} }) }),
      read: build.query<unknown, void>({ query: () => 'posts' }),
    }),
  });
  return { store: makeStore(), endpoints };
}

afterEach(() => sessionStorage.clear());

describe("the tab's newest write", () => {
  it('is still read-your-writes after the page is loaded again in the same tab (a reload, the realm sending it back after a sign-out)', async () => {
    const reads: string[] = [];
    stubApi({
      'POST /api/comments': () => ({ status: 201, body: { id: 'c1', position: '77.3' }, headers: { 'X-Event-Position': '77.3' } }),
      'GET /api/posts': (request) => {
        reads.push(request.headers.get('X-Min-Position') ?? '-');
        return { body: [] };
      },
    });
    const before = await loadPage();
    await before.store.dispatch(before.endpoints.endpoints.write.initiate());

    const after = await loadPage();
    await after.store.dispatch(after.endpoints.endpoints.read.initiate());
    expect(reads).toEqual(['77.3']);
  });
});
