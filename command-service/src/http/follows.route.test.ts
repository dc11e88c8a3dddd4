import { TAG_NAME_MAX } from '@forum/contracts';
import { describe, it } from 'vitest';
import { aPosition, anError, commandApiSpec, member, registered, tagCreated, visitor, type Member } from '../testing/index.ts';

/** Follows (follows.ts): a member's choices on their own stream `follows-<userId>`. */
const api = commandApiSpec();
const vera = member('Vera Author');
const walt = member('Walt Follower');
const NO_POST = '00000000-0000-4000-8000-000000000000';

async function postBy(author: Member): Promise<string> {
  const [{ id }] = await api.given(author.post('/api/posts', { title: 'A post', description: 'Some text', tags: [] }));
  return id;
}

describe('PUT and DELETE /api/posts/:id/follow', () => {
  it('follows and unfollows: 200 {id, position} and the event on the follower’s stream; the same choice again answers without a position and appends nothing', async () => {
    const id = await postBy(vera);
    await api.given(registered(walt));
    const stream = `follows-${walt.id}`;
    await api
      .when(walt.put(`/api/posts/${id}/follow`))
      .then(200, { id, position: aPosition }, [
        { streamId: stream, type: 'PostFollowed', data: { userId: walt.id, postId: id }, metadata: { actorId: walt.id } },
      ]);
    await api.when(walt.put(`/api/posts/${id}/follow`)).then(200, { id }, []);
    await api
      .when(walt.delete(`/api/posts/${id}/follow`))
      .then(200, { id, position: aPosition }, [{ streamId: stream, type: 'PostUnfollowed', data: { postId: id } }]);
    await api.when(walt.delete(`/api/posts/${id}/follow`)).then(200, { id }, []);
  });

  it('an author who never chose unfollows their own post: PostUnfollowed (they followed it by default), once', async () => {
    const id = await postBy(vera);
    await api.when(vera.delete(`/api/posts/${id}/follow`)).then(200, { id, position: aPosition }, [{ streamId: `follows-${vera.id}`, type: 'PostUnfollowed' }]);
    await api.when(vera.delete(`/api/posts/${id}/follow`)).then(200, { id }, []);
  });

  it('answers 400 for a bad post id or a body, 401 without a token, 404 for an unknown or deleted post; appends nothing', async () => {
    const id = await postBy(vera);
    await api.given(registered(walt));
    await api.when(walt.put('/api/posts/nope/follow')).then(400, anError('VALIDATION_FAILED'));
    await api.when(walt.put(`/api/posts/${id}/follow`, { follow: true })).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.put(`/api/posts/${id}/follow`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(visitor.delete(`/api/posts/${id}/follow`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(walt.put(`/api/posts/${NO_POST}/follow`)).then(404, anError('NOT_FOUND'));
    await api.when(walt.delete(`/api/posts/${NO_POST}/follow`)).then(404, anError('NOT_FOUND'));
    await api.given(vera.delete(`/api/my-posts/${id}`));
    await api.when(walt.put(`/api/posts/${id}/follow`)).then(404, anError('NOT_FOUND'));
    await api.when(walt.delete(`/api/posts/${id}/follow`)).then(404, anError('NOT_FOUND'));
  });
});

describe('PUT and DELETE /api/tags/:name/follow', () => {
  it('follows a tag named in any case: the event carries the tag list’s name; again appends nothing; unfollow likewise', async () => {
    await api.given(tagCreated('TypeScript'), registered(walt));
    const stream = `follows-${walt.id}`;
    await api
      .when(walt.put('/api/tags/typescript/follow'))
      .then(200, { id: 'typescript', position: aPosition }, [{ streamId: stream, type: 'TagFollowed', data: { userId: walt.id, tag: 'TypeScript' } }]);
    await api.when(walt.put('/api/tags/TYPESCRIPT/follow')).then(200, { id: 'TYPESCRIPT' }, []);
    await api
      .when(walt.delete('/api/tags/TypeScript/follow'))
      .then(200, { id: 'TypeScript', position: aPosition }, [{ type: 'TagUnfollowed', data: { tag: 'TypeScript' } }]);
    await api.when(walt.delete('/api/tags/TypeScript/follow')).then(200, { id: 'TypeScript' }, []);
  });

  it('answers 404 for a tag the forum does not have, 401 without a token, 400 for a name no tag can have; appends nothing', async () => {
    await api.given(tagCreated('TypeScript'), registered(walt));
    await api.when(walt.put('/api/tags/Rust/follow')).then(404, anError('NOT_FOUND'));
    await api.when(walt.delete('/api/tags/Rust/follow')).then(404, anError('NOT_FOUND'));
    await api.when(visitor.put('/api/tags/TypeScript/follow')).then(401, anError('UNAUTHENTICATED'));
    await api.when(walt.put(`/api/tags/${'x'.repeat(TAG_NAME_MAX + 1)}/follow`)).then(400, anError('VALIDATION_FAILED'));
    await api.when(walt.put('/api/tags/%20/follow')).then(400, anError('VALIDATION_FAILED'));
  });
});
