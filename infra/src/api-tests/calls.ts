import { HEADER_MIN_POSITION, type CommentItem, type ErrorBody, type PostDetail } from '@forum/contracts';
import { expectStatus } from '../testing/expect-status.ts';
import { minPositionHeaders, type TestForum } from '../testing/forum.ts';

/**
 * The calls several API test files make. Commands answer the Response, for the test to check its
 * status; reads answer the body once it is 200. `forum` is asked for on each call, so a file can
 * take these at its top, before its beforeAll has started the forum.
 */
export function calls(forum: () => TestForum) {
  /** Sent by `token`, or by a visitor when there is none. */
  const by = (token: string | undefined) => (token ? { token } : {});
  return {
    eventCount: () => forum().eventCount(),
    /** The types of the events of stream `id`, in order. */
    streamTypes: async (id: string) => (await forum().store.readStream(id)).events.map((e) => e.type),
    /** The error of a refusal that must answer `status`. */
    errorOf: async (response: Response | Promise<Response>, status: number) => (await expectStatus<ErrorBody>(response, status)).error,
    /** Options of a read that waits for `position`. */
    after: (position: string) => ({ headers: { [HEADER_MIN_POSITION]: position } }),

    getPost: (id: string, token?: string, position?: string) =>
      expectStatus<PostDetail>(forum().api(`/api/posts/${id}`, { ...by(token), headers: minPositionHeaders(position) })),
    comments: (postId: string, token?: string, position?: string) =>
      expectStatus<CommentItem[]>(forum().api(`/api/comments/${postId}`, { ...by(token), headers: minPositionHeaders(position) })),
    setVote: (postId: string, token: string, vote: string) => forum().api(`/api/posts/${postId}/vote`, { method: 'PUT', token, json: { vote } }),
    changeVote: (postId: string, token: string, likeChange: number, dislikeChange: number) =>
      forum().api(`/api/posts/${postId}/vote`, { method: 'PATCH', token, json: { likeChange, dislikeChange } }),
    addComment: (token: string, postId: string, text: string) => forum().api('/api/comments', { method: 'POST', token, json: { postId, text } }),
    deletePost: (id: string, token: string) => expectStatus<{ position: string }>(forum().api(`/api/my-posts/${id}`, { method: 'DELETE', token })),

    addTag: (token: string | undefined, name: unknown) => forum().api('/api/admin/tags', { method: 'POST', ...by(token), json: { name } }),
    deleteTag: (token: string | undefined, id: string) => forum().api(`/api/admin/tags/${id}`, { method: 'DELETE', ...by(token) }),
    makeAdmin: (token: string | undefined, userId: string) =>
      forum().api(`/api/admin/users/make-admin/${encodeURIComponent(userId)}`, { method: 'PATCH', ...by(token) }),
    announce: (token: string | undefined, body: unknown) => forum().api('/api/admin/announcements', { method: 'POST', ...by(token), json: body }),
  };
}
