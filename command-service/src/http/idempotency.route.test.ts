import { uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import {
  anAdmin,
  anError,
  commandApiSpec,
  member,
  registered,
  tagCreated,
  warned,
  type CommandApiSpec,
  type Member,
  type RouteRequest,
} from '../testing/index.ts';

/**
 * Every command route that takes an Idempotency-Key passes it to its command: the same request again
 * answers the first answer (Idempotent-Replayed) and appends nothing; the key with another body is
 * 422 IDEMPOTENCY_KEY_REUSED. (How keys are scoped is in posts.route.test.ts.)
 */
const api = commandApiSpec();
const ada = member('Ada Admin');
const alice = member('Alice');
const bob = member('Bob');

const newPost = async (by: Member) => (await api.given(by.post('/api/posts', { title: 'A post', description: 'x', tags: [] })))[0].id;
const newComment = async (by: Member, postId: string) => (await api.given(by.post('/api/comments', { postId, text: 'A comment' })))[0].id;

/** A route, what must have happened for it to succeed, and its request with `body` (another body for the reuse check, where the route takes one). */
type Row = [
  route: string,
  request: (spec: CommandApiSpec) => Promise<(body?: unknown) => RouteRequest> | ((body?: unknown) => RouteRequest),
  bodies: [unknown, unknown] | null,
];

const rows: Row[] = [
  [
    'POST /api/posts',
    () => (body) => alice.post('/api/posts', body),
    [
      { title: 'One', description: 'x', tags: [] },
      { title: 'Two', description: 'x', tags: [] },
    ],
  ],
  [
    'DELETE /api/my-posts/:id',
    async () => {
      const id = await newPost(alice);
      return () => alice.delete(`/api/my-posts/${id}`);
    },
    null,
  ],
  [
    'PUT /api/posts/:id/vote',
    async () => {
      const id = await newPost(alice);
      return (body) => bob.put(`/api/posts/${id}/vote`, body);
    },
    [{ vote: 'up' }, { vote: 'down' }],
  ],
  [
    'PATCH /api/posts/:id/vote',
    async () => {
      const id = await newPost(alice);
      return (body) => bob.patch(`/api/posts/${id}/vote`, body);
    },
    [
      { likeChange: 1, dislikeChange: 0 },
      { likeChange: 0, dislikeChange: 1 },
    ],
  ],
  [
    'PUT /api/posts/:id/follow',
    async () => {
      const id = await newPost(alice);
      return () => bob.put(`/api/posts/${id}/follow`);
    },
    null,
  ],
  [
    'DELETE /api/posts/:id/follow',
    async () => {
      const id = await newPost(alice);
      return () => alice.delete(`/api/posts/${id}/follow`);
    },
    null,
  ],
  [
    'PUT /api/tags/:name/follow',
    async () => {
      await api.given(tagCreated('React'));
      return () => bob.put('/api/tags/react/follow');
    },
    null,
  ],
  [
    'DELETE /api/tags/:name/follow',
    async () => {
      await api.given(tagCreated('React'), bob.put('/api/tags/React/follow'));
      return () => bob.delete('/api/tags/React/follow');
    },
    null,
  ],
  [
    'POST /api/comments',
    async () => {
      const postId = await newPost(alice);
      return (body) => bob.post('/api/comments', { postId, ...(body as object) });
    },
    [{ text: 'One' }, { text: 'Two' }],
  ],
  [
    'POST /api/comments/:id/report',
    async () => {
      const id = await newComment(alice, await newPost(alice));
      return (body) => bob.post(`/api/comments/${id}/report`, body);
    },
    [{ feedback: 'spam' }, { feedback: 'offensive' }],
  ],
  [
    'DELETE /api/admin/comments/:id',
    async () => {
      const id = await newComment(alice, await newPost(alice));
      return () => ada.delete(`/api/admin/comments/${id}`);
    },
    null,
  ],
  [
    'POST /api/me/notifications/read',
    async (spec) => {
      await spec.given(registered(bob), warned(bob, ada, uuidOf(1)), warned(bob, ada, uuidOf(2)));
      return (body) => bob.post('/api/me/notifications/read', body);
    },
    [{ ids: [uuidOf(1)] }, { ids: [uuidOf(2)] }],
  ],
  [
    'POST /api/me/announcements/read',
    async (spec) => {
      const [{ id }] = await spec.given(ada.post('/api/admin/announcements', { title: 'News', description: 'x' }));
      return (body) => bob.post('/api/me/announcements/read', body ?? { announcementId: id });
    },
    null,
  ],
  [
    'PUT /api/me/notification-preferences',
    async (spec) => {
      await spec.given(registered(bob));
      return (body) => bob.put('/api/me/notification-preferences', body);
    },
    [{ reply: 'digest' }, { reply: 'off' }],
  ],
  ['POST /api/admin/tags', () => (body) => ada.post('/api/admin/tags', body), [{ name: 'One' }, { name: 'Two' }]],
  [
    'DELETE /api/admin/tags/:id',
    async (spec) => {
      const [{ id }] = await spec.given(ada.post('/api/admin/tags', { name: 'Gone' }));
      return () => ada.delete(`/api/admin/tags/${id}`);
    },
    null,
  ],
  [
    'PATCH /api/admin/users/make-admin/:userId',
    async (spec) => {
      await spec.given(registered(bob));
      return () => ada.patch(`/api/admin/users/make-admin/${bob.id}`);
    },
    null,
  ],
  [
    'DELETE /api/admin/users/:userId',
    async (spec) => {
      await spec.given(registered(bob));
      return (body) => ada.delete(`/api/admin/users/${bob.id}`, body);
    },
    [{ content: 'keep' }, { content: 'erase' }],
  ],
  [
    'POST /api/admin/announcements',
    () => (body) => ada.post('/api/admin/announcements', body),
    [
      { title: 'One', description: 'x' },
      { title: 'Two', description: 'x' },
    ],
  ],
  [
    'PATCH /api/me',
    async (spec) => {
      await spec.given(registered(bob));
      return (body) => bob.patch('/api/me', body);
    },
    [{ displayName: 'One' }, { displayName: 'Two' }],
  ],
  [
    'DELETE /api/me',
    async (spec) => {
      await spec.given(registered(bob));
      return (body) => bob.delete('/api/me', body);
    },
    [{ content: 'keep' }, { content: 'erase' }],
  ],
];

describe('an Idempotency-Key on every command route that takes one', () => {
  it.each(rows)(
    '%s: the same request again answers the first answer and appends nothing; the key with another body is 422',
    async (_route, request, bodies) => {
      await api.given(anAdmin(ada), registered(alice));
      const send = await request(api);
      const keyed = (body?: unknown): RouteRequest => {
        const sent = send(body);
        return { ...sent, headers: { ...sent.headers, 'Idempotency-Key': 'the-key' } };
      };
      const first = await api.when(keyed(bodies?.[0])).outcome;
      expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
      expect(first.appended.length).toBeGreaterThan(0);
      const again = await api.when(keyed(bodies?.[0])).then(first.status, first.body, []);
      expect(again.headers['idempotent-replayed']).toBe('true');
      if (bodies) await api.when(keyed(bodies[1])).then(422, anError('IDEMPOTENCY_KEY_REUSED'));
    },
  );
});
