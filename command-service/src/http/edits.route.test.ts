import { EDIT_GRACE_SECONDS, EDIT_REASON_MAX } from '@forum/contracts';
import { anyString } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { anAdmin, aPosition, anError, commandApiSpec, hostileText, member, registered, tagCreated, visitor, type Member } from '../testing/index.ts';

/** Editing a post or a comment (posts.ts, community.ts; docs/product.md, Editing); the edit write limit is in write-limits.route.test.ts. */
const api = commandApiSpec();
const alice = member('Alice Author');
const bob = member('Bob Other');
const ada = member('Ada Admin');
const NO_ID = '00000000-0000-4000-8000-000000000000';
const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });

/** A post by `author` (tagged React): its id. */
async function postBy(author: Member): Promise<string> {
  await api.given(tagCreated('React'), tagCreated('Node.js'));
  const [{ id }] = await api.given(author.post('/api/posts', { title: 'Helo world', description: 'A typo', tags: ['React'] }));
  return id;
}
/** A comment by `author` on a post of alice's: its id and the post's. */
async function commentBy(author: Member, text = 'Nice psot'): Promise<{ commentId: string; postId: string }> {
  const postId = await postBy(alice);
  const [{ id }] = await api.given(author.post('/api/comments', { postId, text }));
  return { commentId: id, postId };
}

describe('PATCH /api/posts/:id', () => {
  it('lets the author change what they send: 200 {id, position}, PostEdited with every field after the edit, folded into revision 1 within the grace period', async () => {
    const id = await postBy(alice);
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Hello world' })).then(200, { id, position: aPosition }, [
      {
        streamId: `post-${id}`,
        type: 'PostEdited',
        data: {
          postId: id,
          authorId: alice.id,
          editorId: alice.id,
          title: 'Hello world',
          description: 'A typo',
          tags: ['React'],
          revision: 1,
          editedAt: anyString,
        },
        metadata: { actorId: alice.id },
      },
    ]);
    await api
      .when(alice.patch(`/api/posts/${id}`, { description: '  No typo  ', tags: ['node.js', 'REACT'], reason: 'Tidied up' }))
      .then(200, { id, position: aPosition }, [
        { type: 'PostEdited', data: { title: 'Hello world', description: 'No typo', tags: ['Node.js', 'React'], reason: 'Tidied up', revision: 1 } },
      ]);
  });

  it(`makes revision 2 when the author edits more than ${EDIT_GRACE_SECONDS} s after revision 1, and folds the next edit within the grace period into it`, async () => {
    const id = await postBy(alice);
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Hello world' })).then(200, undefined, [{ data: { revision: 1 } }]);
    api.later(EDIT_GRACE_SECONDS + 1);
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Hello, world' })).then(200, undefined, [{ data: { revision: 2 } }]);
    api.later(EDIT_GRACE_SECONDS - 10);
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Hello, world!' })).then(200, undefined, [{ data: { revision: 2 } }]);
  });

  it('answers an edit that changes nothing with 200 {id} and no position, appending nothing', async () => {
    const id = await postBy(alice);
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Helo world', tags: ['react'] })).then(200, { id }, []);
    await api.when(alice.patch(`/api/posts/${id}`, { description: 'A typo', reason: 'Nothing to say' })).then(200, { id }, []);
  });

  it("lets staff edit someone else's post only with a reason: 422 EDIT_REASON_REQUIRED without one; with one a new revision carrying it", async () => {
    const id = await postBy(alice);
    await api.given(anAdmin(ada));
    await api.when(ada.patch(`/api/posts/${id}`, { title: 'Hello world' })).then(422, anError('EDIT_REASON_REQUIRED'));
    await api.when(ada.patch(`/api/posts/${id}`, { title: 'Hello world', reason: 'Fixed the title' })).then(200, { id, position: aPosition }, [
      {
        type: 'PostEdited',
        data: { authorId: alice.id, editorId: ada.id, title: 'Hello world', reason: 'Fixed the title', revision: 2 },
        metadata: { actorId: ada.id },
      },
    ]);
  });

  it('refuses someone else with 403, a visitor with 401, an unknown or deleted post with 404, a malformed id with 400; appends nothing', async () => {
    const id = await postBy(alice);
    await api.given(registered(bob));
    await api.when(bob.patch(`/api/posts/${id}`, { title: 'Mine now' })).then(403, anError('FORBIDDEN'));
    await api.when(bob.patch(`/api/posts/${id}`, { title: 'Mine now', reason: 'I say so' })).then(403, anError('FORBIDDEN'));
    await api.when(visitor.patch(`/api/posts/${id}`, { title: 'Anyone' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(alice.patch(`/api/posts/${NO_ID}`, { title: 'Nothing' })).then(404, anError('NOT_FOUND'));
    await api.when(alice.patch('/api/posts/nope', { title: 'Nothing' })).then(400, anError('VALIDATION_FAILED'));
    await api.given(alice.delete(`/api/my-posts/${id}`));
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Gone' })).then(404, anError('NOT_FOUND'));
  });

  it('refuses what creating refuses, and a body without a field to change, with 400 on the field; appends nothing', async () => {
    const id = await postBy(alice);
    const refused = async (body: unknown, details: Record<string, string[]>) =>
      api.when(alice.patch(`/api/posts/${id}`, body)).then(400, anError('VALIDATION_FAILED', { details }));
    await refused({}, { title: ['Change the title, the description or the tags'] });
    await refused({ reason: 'Just because' }, { title: ['Change the title, the description or the tags'] });
    await refused({ title: '   ' }, { title: ['Title is required'] });
    await refused({ description: '' }, { description: ['Description is required'] });
    await refused({ tags: ['react', 'no-such-tag'] }, { tags: ['Unknown tag "no-such-tag"'] });
    await refused({ title: 'Fine', reason: '' }, { reason: ['Reason must not be empty'] });
    await refused({ title: 'Fine', reason: 'x'.repeat(EDIT_REASON_MAX + 1) }, { reason: [`Reason must be at most ${EDIT_REASON_MAX} characters`] });
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Fine', authorId: bob.id })).then(400, anError('VALIDATION_FAILED'));
  });

  it.each([
    ...hostileText('line').map(([what, value]) => ['title', what, { title: value }] as const),
    ...hostileText('body').map(([what, value]) => ['description', what, { description: value }] as const),
    ...hostileText('line').map(([what, value]) => ['tags.0', what, { tags: [value] }] as const),
    // a reason is free text (kind 'line'): right-to-left writers' direction marks are theirs
    ...hostileText('body').map(([what, value]) => ['reason', what, { title: 'Fine', reason: value }] as const),
  ])('refuses hostile text in %s (%s) with 400 on the field, appending nothing', async (field, _what, body) => {
    const id = await postBy(alice);
    const { body: answer } = await api.when(alice.patch(`/api/posts/${id}`, body)).then(400);
    expect(Object.keys((answer as { error: { details: object } }).error.details)).toContain(field);
  });

  it('with an Idempotency-Key: a retry answers the first answer, marked Idempotent-Replayed, and appends nothing', async () => {
    const id = await postBy(alice);
    const first = await api.when(alice.patch(`/api/posts/${id}`, { title: 'Once' }, keyed('edit-1'))).then(200, { id, position: aPosition });
    const again = await api.when(alice.patch(`/api/posts/${id}`, { title: 'Once' }, keyed('edit-1'))).then(200, first.body, []);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Twice' }, keyed('edit-1'))).then(422, anError('IDEMPOTENCY_KEY_REUSED'));
  });

  it('refuses an author erased with their content kept (401 ACCOUNT_DISABLED); staff still edit their post with a reason, its text sealed under the kept key', async () => {
    const id = await postBy(alice);
    await api.given(anAdmin(ada), alice.delete('/api/me', { content: 'keep' }));
    await api.when(alice.patch(`/api/posts/${id}`, { title: 'Hello world' })).then(401, anError('ACCOUNT_DISABLED'));
    await api.when(ada.patch(`/api/posts/${id}`, { description: 'Removed a phone number' })).then(422, anError('EDIT_REASON_REQUIRED'));
    await api
      .when(ada.patch(`/api/posts/${id}`, { description: 'Removed a phone number', reason: 'Personal data' }))
      .then(200, { id, position: aPosition }, [
        { type: 'PostEdited', data: { authorId: alice.id, title: 'Helo world', description: 'Removed a phone number' } },
      ]);
  });
});

describe('PATCH /api/comments/:commentId', () => {
  it('lets the author change the text: 200 {id, position}, CommentEdited naming the post, folded into revision 1 within the grace period; later, revision 2', async () => {
    const { commentId, postId } = await commentBy(bob);
    await api.when(bob.patch(`/api/comments/${commentId}`, { text: '  Nice post  ' })).then(200, { id: commentId, position: aPosition }, [
      {
        streamId: `comment-${commentId}`,
        type: 'CommentEdited',
        data: { commentId, postId, authorId: bob.id, editorId: bob.id, text: 'Nice post', revision: 1, editedAt: anyString },
        metadata: { actorId: bob.id },
      },
    ]);
    api.later(EDIT_GRACE_SECONDS + 1);
    await api
      .when(bob.patch(`/api/comments/${commentId}`, { text: 'Nice post!', reason: 'Excited' }))
      .then(200, undefined, [{ type: 'CommentEdited', data: { text: 'Nice post!', reason: 'Excited', revision: 2 } }]);
  });

  it('answers an edit that changes nothing with 200 {id} and no position, appending nothing', async () => {
    const { commentId } = await commentBy(bob);
    await api.when(bob.patch(`/api/comments/${commentId}`, { text: ' Nice psot ' })).then(200, { id: commentId }, []);
  });

  it("lets staff edit someone else's comment only with a reason, always as a new revision", async () => {
    const { commentId } = await commentBy(bob);
    await api.given(anAdmin(ada));
    await api.when(ada.patch(`/api/comments/${commentId}`, { text: 'Be kind' })).then(422, anError('EDIT_REASON_REQUIRED'));
    await api
      .when(ada.patch(`/api/comments/${commentId}`, { text: 'Be kind', reason: 'Rude words' }))
      .then(200, { id: commentId, position: aPosition }, [
        { type: 'CommentEdited', data: { authorId: bob.id, editorId: ada.id, text: 'Be kind', reason: 'Rude words', revision: 2 } },
      ]);
  });

  it('refuses someone else with 403, a visitor with 401, an unknown or removed comment and one under a deleted post with 404; appends nothing', async () => {
    const { commentId, postId } = await commentBy(bob);
    await api.given(anAdmin(ada));
    await api.when(alice.patch(`/api/comments/${commentId}`, { text: 'Not mine', reason: 'Still' })).then(403, anError('FORBIDDEN'));
    await api.when(visitor.patch(`/api/comments/${commentId}`, { text: 'Anyone' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(bob.patch(`/api/comments/${NO_ID}`, { text: 'Nothing' })).then(404, anError('NOT_FOUND'));
    await api.when(bob.patch('/api/comments/nope', { text: 'Nothing' })).then(400, anError('VALIDATION_FAILED'));
    const other = await commentBy(bob, 'Another one');
    await api.given(ada.delete(`/api/admin/comments/${other.commentId}`));
    await api.when(bob.patch(`/api/comments/${other.commentId}`, { text: 'Back?' })).then(404, anError('NOT_FOUND'));
    await api.given(alice.delete(`/api/my-posts/${postId}`));
    await api.when(bob.patch(`/api/comments/${commentId}`, { text: 'Still here?' })).then(404, anError('NOT_FOUND'));
    await api.when(ada.patch(`/api/comments/${commentId}`, { text: 'Still here?', reason: 'Checking' })).then(404, anError('NOT_FOUND'));
  });

  it('refuses an empty text, a missing one and unknown fields with 400 on the field; appends nothing', async () => {
    const { commentId } = await commentBy(bob);
    await api
      .when(bob.patch(`/api/comments/${commentId}`, { text: ' \n ' }))
      .then(400, anError('VALIDATION_FAILED', { details: { text: ['Comment must not be empty'] } }));
    await api.when(bob.patch(`/api/comments/${commentId}`, { reason: 'No text' })).then(400, anError('VALIDATION_FAILED'));
    await api.when(bob.patch(`/api/comments/${commentId}`, { text: 'Fine', postId: NO_ID })).then(400, anError('VALIDATION_FAILED'));
  });

  it.each([
    ...hostileText('body').map(([what, value]) => ['text', what, { text: value }] as const),
    ...hostileText('body').map(([what, value]) => ['reason', what, { text: 'Fine', reason: value }] as const),
  ])('refuses hostile text in %s (%s) with 400 on the field, appending nothing', async (field, _what, body) => {
    const { commentId } = await commentBy(bob);
    const { body: answer } = await api.when(bob.patch(`/api/comments/${commentId}`, body)).then(400);
    expect(Object.keys((answer as { error: { details: object } }).error.details)).toContain(field);
  });

  it('with an Idempotency-Key: a retry answers the first answer and appends nothing', async () => {
    const { commentId } = await commentBy(bob);
    const first = await api.when(bob.patch(`/api/comments/${commentId}`, { text: 'Once' }, keyed('edit-c'))).then(200, { id: commentId, position: aPosition });
    const again = await api.when(bob.patch(`/api/comments/${commentId}`, { text: 'Once' }, keyed('edit-c'))).then(200, first.body, []);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
