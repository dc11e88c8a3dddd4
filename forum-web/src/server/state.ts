import { api } from '../lib/api';

/** The id of the data script holding the server's store state, which the browser's store starts from (main.tsx). */
export const STATE_SCRIPT_ID = 'forum-state';

type ApiState = ReturnType<typeof api.reducer>;

/** What the server hands the browser's store: the reads' answers and the tags they provide. */
export type ServerState = Pick<ApiState, 'queries' | 'provided'>;

/** The state a store starts from on a server-rendered page: the api's own, with the server's reads in it. */
export function preloadedState(server: ServerState): { [api.reducerPath]: ApiState } {
  return { [api.reducerPath]: { ...api.reducer(undefined, { type: '' }), ...server } };
}
