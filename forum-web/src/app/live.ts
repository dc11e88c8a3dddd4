import type { Auth } from '@forum/web-auth';
import { api, apiBaseUrl } from '../lib/api';
import { LiveStream, type LiveStreamOptions } from '../lib/live';
import type { AppStore } from './store';

/** What the stream's `refetch` reads again: everything a page shows that the stream keeps up to date. */
const LIVE_TAGS = ['Post', 'Comment', 'Announcement', 'Notification'] as const;

/** The tab's change stream, over `store`'s api, a member's ticket fetched with `auth`'s token. */
export function makeLiveStream(store: AppStore, auth: Pick<Auth, 'token'>, options: Partial<LiveStreamOptions> = {}): LiveStream {
  return new LiveStream({
    baseUrl: apiBaseUrl(),
    token: () => auth.token(),
    refetchAll: () => store.dispatch(api.util.invalidateTags([...LIVE_TAGS])),
    ...options,
  });
}
