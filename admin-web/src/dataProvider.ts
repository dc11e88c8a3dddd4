import {
  HEADER_EVENT_POSITION,
  HEADER_MIN_POSITION,
  HEADER_READ_BEHIND,
  READ_BEHIND_RETRY,
  WrittenPosition,
  type AdminStats,
  type CreateAnnouncementRequest,
  type EditCommentRequest,
  type EditPostRequest,
  type ErasedContentChoice,
  type History,
  type HistoryKind,
  type HistoryStates,
  type ModeratedKind,
  type QUEUE_STATUSES,
  type ReportQueue,
  type SuspendMemberRequest,
  type WarnMemberRequest,
  type WarnUserRequest,
} from '@forum/contracts';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, HttpError, type DataProvider, type GetListParams, type GetManyReferenceParams, type RaRecord } from 'react-admin';

/** The access token of the signed-in admin (refreshed when it expires within 30 s), or undefined. */
export type TokenSource = () => Promise<string | undefined>;

/**
 * ra's fetchJson with the admin's bearer token on every call, the console's written position on
 * every read (read-your-writes: the list a moderator comes back to shows what they just did, read
 * again while the server answers it is behind), and every command's position remembered.
 */
export function authenticatedHttpClient(token: TokenSource, written: WrittenPosition = new WrittenPosition()) {
  return async (url: string, options: fetchUtils.Options = {}) => {
    const current = await token();
    const headers = new Headers(options.headers);
    const method = (options.method ?? 'GET').toUpperCase();
    const position = written.get();
    if (method === 'GET' && position && !headers.has(HEADER_MIN_POSITION)) headers.set(HEADER_MIN_POSITION, position);
    const read = () => fetchUtils.fetchJson(url, { ...options, headers, ...(current ? { user: { authenticated: true, token: `Bearer ${current}` } } : {}) });
    let result = await read();
    if (method !== 'GET') written.saw(result.headers.get(HEADER_EVENT_POSITION));
    // the read models had not reached the position yet when the server answered: read again (READ_BEHIND_RETRY)
    for (let tries = 1; tries < READ_BEHIND_RETRY.tries && result.headers.get(HEADER_READ_BEHIND) === 'true'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, READ_BEHIND_RETRY.pauseMs));
      result = await read();
    }
    return result;
  };
}

/**
 * The console's resources (their paths under /admin, spec §2) and the API each reads
 * (ra-data-simple-rest: `?range=[0,9]&sort=…&filter=…`, answered with `Content-Range`).
 */
export const RESOURCE_ENDPOINTS = {
  'manage-users': 'admin/users',
  'reported-comments': 'admin/reported-comments',
  reports: 'admin/reports',
  tags: 'admin/tags',
  announcements: 'announcements',
  audit: 'admin/audit',
  'contact-messages': 'admin/contact-messages',
  projections: 'admin/projections',
  snapshots: 'admin/snapshots',
  posts: 'posts',
} as const;
const endpointOf = (resource: string) => (RESOURCE_ENDPOINTS as Record<string, string>)[resource] ?? resource;

/** The forum's records are keyed `_id` (spec §3); react-admin needs `id`. */
function withId<T extends RaRecord>(record: T): T {
  const raw = record as T & { _id?: string };
  return raw.id === undefined && raw._id !== undefined ? { ...raw, id: raw._id } : record;
}

/** What every command answers: the id it acted on and the position of its last event. */
export interface Accepted {
  id?: string;
  position?: string;
}

/**
 * The moderation and operations verbs beside react-admin's CRUD (react-admin's CRM demo style:
 * typed methods called with `useDataProvider<ForumDataProvider>()`). Each is pessimistic: it
 * resolves once the command is accepted, and the reads after it wait for its position.
 */
export interface ForumDataProvider extends DataProvider {
  /** GET /api/admin/stats: the admin card and the three totals. */
  getStats(): Promise<AdminStats>;
  addTag(name: string): Promise<Accepted>;
  deleteTag(id: string): Promise<Accepted>;
  makeAdmin(userId: string): Promise<Accepted>;
  /** DELETE /api/admin/users/:userId: erases another user's account, their posts and comments kept or erased too. */
  eraseUser(userId: string, content: ErasedContentChoice): Promise<Accepted>;
  deleteComment(commentId: string): Promise<Accepted>;
  /** PATCH /api/posts/:id: a post's new fields, with the reason (required when it is someone else's). */
  editPost(postId: string, edit: EditPostRequest): Promise<Accepted>;
  /** PATCH /api/comments/:commentId: a comment's new text, with the reason (required when it is someone else's). */
  editComment(commentId: string, edit: EditCommentRequest): Promise<Accepted>;
  warnUser(authorEmail: string, warning?: WarnUserRequest): Promise<Accepted>;
  createAnnouncement(announcement: CreateAnnouncementRequest): Promise<Accepted>;
  rebuildProjection(name: string): Promise<Accepted>;
  /** GET /api/admin/history/:kind/:id?after=: a page of a user's or a post's history after the position `after` (none: from its first event), oldest first (404 when it has none). */
  getHistory(kind: HistoryKind, id: string, after?: string): Promise<History>;
  /** GET /api/admin/history/:kind/:id/states?after=: for the same page, the state after each event and what it changed. */
  getHistoryStates(kind: HistoryKind, id: string, after?: string): Promise<HistoryStates>;
  /** POST /api/admin/reports/:kind/:id/dismiss: the item's open reports handled, nothing done to it. */
  dismissReports(kind: ModeratedKind, id: string): Promise<Accepted>;
  /** PUT /api/admin/posts/:id/hide (or comments'): hidden from all but its author and staff, who see the reason. */
  hide(kind: ModeratedKind, id: string, reason: string): Promise<Accepted>;
  unhide(kind: ModeratedKind, id: string): Promise<Accepted>;
  /** DELETE /api/posts/:id or /api/admin/comments/:commentId. */
  deleteItem(kind: ModeratedKind, id: string): Promise<Accepted>;
  lockPost(postId: string, reason?: string): Promise<Accepted>;
  unlockPost(postId: string): Promise<Accepted>;
  pinPost(postId: string): Promise<Accepted>;
  unpinPost(postId: string): Promise<Accepted>;
  /** POST /api/admin/users/:userId/warnings: by the member's id (moderators see no emails), about the reported item when given. */
  warnMember(userId: string, warning: WarnMemberRequest): Promise<Accepted>;
  suspendMember(userId: string, suspension: SuspendMemberRequest): Promise<Accepted>;
  liftSuspension(userId: string): Promise<Accepted>;
  /** PUT (grant) or DELETE (revoke) /api/admin/users/:userId/moderator: admins only. */
  setModerator(userId: string, moderator: boolean): Promise<Accepted>;
}

/** A row of the moderators' queue as react-admin holds it: the same item may be open and, from an earlier round, handled. */
export type QueueRecord = ReportQueue['items'][number] & { id: string };

/** `/api/admin/posts/:id` or `/api/admin/comments/:id`. */
const moderatedPath = (kind: ModeratedKind, id: string) => `admin/${kind === 'post' ? 'posts' : 'comments'}/${encodeURIComponent(id)}`;

/** A history's path (`part`: '' or '/states'), from the event after `after` when given. */
const historyPath = (kind: HistoryKind, id: string, part: string, after?: string) =>
  `/api/admin/history/${encodeURIComponent(kind)}/${encodeURIComponent(id)}${part}${after ? `?after=${encodeURIComponent(after)}` : ''}`;

/**
 * Reads go through ra-data-simple-rest against the query-service; the verbs are plain calls to
 * the command-service. An error answer becomes react-admin's HttpError with the server's message
 * (`{ error: { code, message } }`) and its code in `body`.
 */
export function createDataProvider(token: TokenSource, written: WrittenPosition = new WrittenPosition()): ForumDataProvider {
  const http = authenticatedHttpClient(token, written);
  const restProvider = simpleRestProvider('/api', http);
  const send = async (path: string, method: string, body?: unknown): Promise<Accepted> => {
    const response = await http(`/api/${path}`, { method, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    // the command-service's answer to a command (204 has none)
    return (response.json as Accepted | undefined) ?? {};
  };
  /** GET /api/admin/reports?status=&page=: the queue pages by its own page size (ADMIN_PAGE_SIZE), as react-admin's list does. */
  const reportQueue = async (params: GetListParams) => {
    const status: (typeof QUEUE_STATUSES)[number] = (params.filter as { status?: unknown } | undefined)?.status === 'handled' ? 'handled' : 'open';
    const page = params.pagination?.page ?? 1;
    const queue = (await http(`/api/admin/reports?status=${status}&page=${page}`)).json as ReportQueue;
    const data: QueueRecord[] = queue.items.map((item) => ({ ...item, id: `${status}-${item.kind}-${item._id}-${item.handled?.at ?? ''}` }));
    return { data, total: queue.totalCount };
  };
  return {
    ...restProvider,
    getList: async <RecordType extends RaRecord>(resource: string, params: GetListParams) => {
      if (resource === 'reports') return (await reportQueue(params)) as unknown as { data: RecordType[]; total: number };
      const result = await restProvider.getList<RecordType>(endpointOf(resource), params);
      return { ...result, data: result.data.map(withId) };
    },
    getOne: async (resource, params) => {
      const result = await restProvider.getOne(endpointOf(resource), params);
      return { ...result, data: withId(result.data) };
    },
    getMany: async (resource, params) => {
      const result = await restProvider.getMany(endpointOf(resource), params);
      return { ...result, data: result.data.map(withId) };
    },
    getManyReference: async <RecordType extends RaRecord>(resource: string, params: GetManyReferenceParams) => {
      const result = await restProvider.getManyReference<RecordType>(endpointOf(resource), params);
      return { ...result, data: result.data.map(withId) };
    },
    getStats: async () => (await http('/api/admin/stats')).json as AdminStats,
    addTag: (name) => send('admin/tags', 'POST', { name }),
    deleteTag: (id) => send(`admin/tags/${encodeURIComponent(id)}`, 'DELETE'),
    makeAdmin: (userId) => send(`admin/users/make-admin/${encodeURIComponent(userId)}`, 'PATCH'),
    eraseUser: (userId, content) => send(`admin/users/${encodeURIComponent(userId)}`, 'DELETE', { content }),
    deleteComment: (commentId) => send(`admin/comments/${encodeURIComponent(commentId)}`, 'DELETE'),
    editPost: (postId, edit) => send(`posts/${encodeURIComponent(postId)}`, 'PATCH', edit),
    editComment: (commentId, edit) => send(`comments/${encodeURIComponent(commentId)}`, 'PATCH', edit),
    warnUser: (authorEmail, warning = {}) => send(`admin/warn-user/${encodeURIComponent(authorEmail)}`, 'POST', warning),
    createAnnouncement: (announcement) => send('admin/announcements', 'POST', announcement),
    rebuildProjection: (name) => send(`admin/projections/${encodeURIComponent(name)}/rebuild`, 'POST'),
    getHistory: async (kind, id, after) => (await http(historyPath(kind, id, '', after))).json as History,
    getHistoryStates: async (kind, id, after) => (await http(historyPath(kind, id, '/states', after))).json as HistoryStates,
    dismissReports: (kind, id) => send(`admin/reports/${kind}/${encodeURIComponent(id)}/dismiss`, 'POST'),
    hide: (kind, id, reason) => send(`${moderatedPath(kind, id)}/hide`, 'PUT', { reason }),
    unhide: (kind, id) => send(`${moderatedPath(kind, id)}/hide`, 'DELETE'),
    deleteItem: (kind, id) => send(kind === 'post' ? `posts/${encodeURIComponent(id)}` : `admin/comments/${encodeURIComponent(id)}`, 'DELETE'),
    lockPost: (postId, reason) => send(`${moderatedPath('post', postId)}/lock`, 'PUT', reason ? { reason } : {}),
    unlockPost: (postId) => send(`${moderatedPath('post', postId)}/lock`, 'DELETE'),
    pinPost: (postId) => send(`${moderatedPath('post', postId)}/pin`, 'PUT'),
    unpinPost: (postId) => send(`${moderatedPath('post', postId)}/pin`, 'DELETE'),
    warnMember: (userId, warning) => send(`admin/users/${encodeURIComponent(userId)}/warnings`, 'POST', warning),
    suspendMember: (userId, suspension) => send(`admin/users/${encodeURIComponent(userId)}/suspend`, 'POST', suspension),
    liftSuspension: (userId) => send(`admin/users/${encodeURIComponent(userId)}/suspend`, 'DELETE'),
    setModerator: (userId, moderator) => send(`admin/users/${encodeURIComponent(userId)}/moderator`, moderator ? 'PUT' : 'DELETE'),
  };
}

/** The server's message of a failed call (its `{ error: { message } }`), else `fallback`: the spec's own failure text. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof HttpError) {
    const body = error.body as { error?: { message?: unknown } } | undefined;
    if (typeof body?.error?.message === 'string' && body.error.message) return body.error.message;
  }
  return fallback;
}

/** The `details` of a refused call's error (its shape is the code's: contracts), or undefined. */
export function serverDetails(error: unknown): unknown {
  if (!(error instanceof HttpError)) return undefined;
  return (error.body as { error?: { details?: unknown } } | undefined)?.error?.details;
}

/** The first message for each field of a refused call (400 VALIDATION_FAILED's `details`), or {}. */
export function serverFieldMessages(error: unknown): Record<string, string> {
  const details = serverDetails(error);
  if (!details || typeof details !== 'object') return {};
  return Object.fromEntries(
    Object.entries(details as Record<string, unknown>).flatMap(([field, messages]) =>
      Array.isArray(messages) && typeof messages[0] === 'string' ? [[field, messages[0]]] : [],
    ),
  );
}

/** The server's error code of a failed call (e.g. TAG_EXISTS), or null. */
export function serverCode(error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  const body = error.body as { error?: { code?: unknown } } | undefined;
  return typeof body?.error?.code === 'string' ? body.error.code : null;
}
