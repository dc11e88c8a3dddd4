import { PostIdParams, PublicProfileParams } from '@forum/contracts';
import { matchRoutes } from 'react-router-dom';
import type { AppStore } from '../app/store';
import { routes } from '../app/router';
import { getPostsApi } from '../features/posts/api/get-posts';
import { parsePostListParams } from '../features/posts/hooks/post-list-params';
import { getAnnouncementsApi } from '../features/notifications/api/get-announcements';
import { getCommentsApi } from '../features/comments/api/get-comments';
import { getPublicProfileApi } from '../features/profiles/api/get-public-profile';
import { getTagsApi } from '../lib/tags';
import { parsePage } from '../lib/page-param';
import { getPostApi } from '../lib/post';
import { taggedPostsApi } from '../lib/tagged-posts';

/** What a page's reads found: the page is there (200), or the HTTP status its address answers. */
export type LoadedStatus = 200 | 404 | 410;

/** A settled read: its HTTP status (the read side's answer; 200 when it had data). */
interface Read {
  readonly error?: unknown;
}

const statusOf = (read: Read): LoadedStatus | 'failed' => {
  if (!read.error) return 200;
  const status = (read.error as { status?: unknown }).status;
  // a 400: the address names nothing the read side can look up (a tag name no tag can have)
  return status === 404 || status === 400 ? 404 : status === 410 ? 410 : 'failed';
};

type Loader = (store: AppStore, params: Record<string, string | undefined>, search: URLSearchParams) => Promise<LoadedStatus>;

/**
 * The public pages' reads, what their components' hooks ask for (RTK Query's hooks fetch in effects,
 * which a server render does not run), keyed by the route's path of the app's route table. The
 * first read says the page's status; a read that failed otherwise (the read side unreachable) throws,
 * and the caller sends the plain shell.
 */
const LOADERS: Readonly<Record<string, Loader>> = {
  '/': async (store, _params, search) => {
    const [posts] = await Promise.all([
      store.dispatch(getPostsApi.endpoints.getPosts.initiate(parsePostListParams(search))),
      store.dispatch(getTagsApi.endpoints.getTags.initiate()),
      store.dispatch(getAnnouncementsApi.endpoints.getAnnouncements.initiate()),
    ]);
    return settled(posts);
  },
  'post/:id': async (store, { id = '' }) => {
    if (!PostIdParams.safeParse({ id }).success) return 404;
    const [post] = await Promise.all([
      store.dispatch(getPostApi.endpoints.getPost.initiate(id)),
      store.dispatch(getCommentsApi.endpoints.getComments.initiate(id)),
    ]);
    return settled(post);
  },
  'tags/:tag': async (store, { tag = '' }, search) => {
    const [posts, tags] = await Promise.all([
      store.dispatch(taggedPostsApi.endpoints.getTaggedPosts.initiate({ tag, page: parsePage(search.get('page')) })),
      store.dispatch(getTagsApi.endpoints.getTags.initiate()),
    ]);
    settled(posts);
    // a name no tag of the list has, in any case, is no page (the page still says so, as in the browser)
    const known = settled(tags) === 200 && (tags.data ?? []).some((name) => name.toLowerCase() === tag.toLowerCase());
    return known ? 200 : 404;
  },
  'u/:id': async (store, { id = '' }, search) => {
    if (!PublicProfileParams.safeParse({ id }).success) return 404;
    return settled(await store.dispatch(getPublicProfileApi.endpoints.getPublicProfile.initiate({ id, page: parsePage(search.get('page')) })));
  },
};

function settled(read: Read): LoadedStatus {
  const status = statusOf(read);
  if (status === 'failed') throw new Error(`a public page's read failed: ${JSON.stringify(read.error)}`);
  return status;
}

/** The public page at `url` (path and query): its loader, or undefined for every other path (the app renders it in the browser). */
export function publicPage(url: URL): ((store: AppStore) => Promise<LoadedStatus>) | undefined {
  const matches = matchRoutes(routes, url.pathname);
  const leaf = matches?.at(-1);
  if (!leaf) return undefined;
  const key = leaf.route.index ? '/' : leaf.route.path;
  const loader = key === undefined ? undefined : LOADERS[key];
  return loader && ((store) => loader(store, leaf.params, url.searchParams));
}
