import { TAG_NAME_MAX, TagExistsDetails } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { anAdmin, aPosition, anError, anId, commandApiSpec, hostileText, member, registered, tagCreated, visitor } from '../testing/index.ts';
import { newId } from '../ids.ts';
import { anyArray, anyString } from '@forum/platform/testing';

/**
 * The admin area's writes (admin.ts): tags, make admin, erasing a user, announcements. Each needs a
 * token (401) and the forum's admin role, decided on the caller's own stream (403). An erasure that
 * takes the member's posts and comments with it finds them in the log (the member's history); what
 * the read models then show is in infra's API tests (erasure).
 */
const api = commandApiSpec();
const ada = member('Forum Admin', { photo: 'https://img.example/ada.png' });
const tom = member('Tom Tagger');
const eve = member('Eve');
const NO_ID = '00000000-0000-4000-8000-000000000000';

describe('POST /api/admin/tags', () => {
  it('adds a trimmed tag: 201 {success, id, tag, position}; TagCreated names the admin', async () => {
    await api.given(anAdmin(ada));
    const { body } = await api
      .when(ada.post('/api/admin/tags', { name: '  Rust  ' }))
      .then(201, { success: true, id: anId, tag: { _id: anId, name: 'Rust' }, position: aPosition }, [
        { streamId: 'tags', type: 'TagCreated', data: { name: 'Rust' }, metadata: { actorId: ada.id } },
      ]);
    const { id, tag } = body as { id: string; tag: { _id: string } };
    expect(tag._id).toBe(id);
    expect((await api.log()).at(-1)!.data).toMatchObject({ tagId: id });
  });

  it('refuses a name that exists in another case with 409 TAG_EXISTS naming the tag that exists (its id and spelling in the details), appending nothing', async () => {
    const tagId = newId();
    await api.given(anAdmin(ada), tagCreated('React', tagId));
    const { body } = await api
      .when(ada.post('/api/admin/tags', { name: 'react' }))
      .then(409, anError('TAG_EXISTS', { message: 'The tag "React" already exists', details: { tag: { _id: tagId, name: 'React' } } }));
    expect(TagExistsDetails.parse((body as { error: { details: unknown } }).error.details)).toEqual({ tag: { _id: tagId, name: 'React' } });
  });

  it('adds one tag when five admins add the same new name at once: one 201, four 409', async () => {
    const admins = Array.from({ length: 5 }, (_, i) => member(`Admin ${i}`));
    await api.given(...admins.flatMap(anAdmin));
    const outcomes = await Promise.all(admins.map((admin) => api.when(admin.post('/api/admin/tags', { name: 'Elixir' })).outcome));
    expect(outcomes.map((o) => o.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await api.log()).filter((e) => e.type === 'TagCreated')).toHaveLength(1);
  });

  it.each([['missing', undefined], ['blank', '   '], ['not text', 42], [`longer than ${TAG_NAME_MAX}`, 'x'.repeat(TAG_NAME_MAX + 1)], ...hostileText('line')])(
    'refuses a name %s with 400 on name, appending nothing',
    async (_case, name) => {
      await api.given(anAdmin(ada));
      const { body } = await api.when(ada.post('/api/admin/tags', { name })).then(400, anError('VALIDATION_FAILED'));
      expect(Object.keys((body as { error: { details: object } }).error.details)).toEqual(['name']);
    },
  );

  it(`#28.9 refuses an 80-character name with the rule's message, never cutting it to ${TAG_NAME_MAX}`, async () => {
    await api.given(anAdmin(ada));
    await api
      .when(ada.post('/api/admin/tags', { name: 'Eighty'.repeat(14).slice(0, 80) }))
      .then(400, anError('VALIDATION_FAILED', { details: { name: [`Tag name must be at most ${TAG_NAME_MAX} characters`] } }));
  });

  it('answers 401 without a token and 403 FORBIDDEN for a user, appending nothing; a form body is 415', async () => {
    await api.given(anAdmin(ada), registered(tom));
    await api.when(visitor.post('/api/admin/tags', { name: 'Go' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(tom.post('/api/admin/tags', { name: 'Go' })).then(403, anError('FORBIDDEN'));
    await api.when(ada.send('POST', '/api/admin/tags', 'name=Go', 'application/x-www-form-urlencoded')).then(415, anError('UNSUPPORTED_MEDIA_TYPE'));
  });
});

describe('DELETE /api/admin/tags/:id', () => {
  it('removes the tag: 200 {success, id, position}, TagDeleted; a post can no longer take it; the name can be added again', async () => {
    const [, { id }] = await api.given(anAdmin(ada), ada.post('/api/admin/tags', { name: 'Kotlin' }));
    await api
      .when(ada.delete(`/api/admin/tags/${id}`))
      .then(200, { success: true, id, position: aPosition }, [
        { streamId: 'tags', type: 'TagDeleted', data: { tagId: id, name: 'Kotlin', deletedAt: anyString }, metadata: { actorId: ada.id } },
      ]);
    await api
      .when(tom.post('/api/posts', { title: 'More', description: 'x', tags: ['Kotlin'] }))
      .then(400, anError('VALIDATION_FAILED', { details: { tags: ['Unknown tag "Kotlin"'] } }));
    const again = await api.when(ada.post('/api/admin/tags', { name: 'kotlin' })).then(201);
    expect((again.body as { id: string }).id).not.toBe(id);
  });

  it('answers 404 for an unknown or already deleted tag, 400 for a non-id or a body, 401 and 403; appending nothing', async () => {
    const [, , scala, haskell] = await api.given(
      anAdmin(ada),
      registered(tom),
      ada.post('/api/admin/tags', { name: 'Scala' }),
      ada.post('/api/admin/tags', { name: 'Haskell' }),
    );
    await api.given(ada.delete(`/api/admin/tags/${scala.id}`));
    await api.when(ada.delete(`/api/admin/tags/${scala.id}`)).then(404, anError('NOT_FOUND'));
    await api.when(ada.delete(`/api/admin/tags/${NO_ID}`)).then(404, anError('NOT_FOUND'));
    await api.when(ada.delete('/api/admin/tags/scala')).then(400, anError('VALIDATION_FAILED', { details: { id: ['Not a tag id'] } }));
    await api.when(ada.delete('/api/admin/tags/%00')).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.delete(`/api/admin/tags/${NO_ID}`, { anything: true })).then(400, anError('VALIDATION_FAILED'));
    await api.when(visitor.delete(`/api/admin/tags/${haskell.id}`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(tom.delete(`/api/admin/tags/${haskell.id}`)).then(403, anError('FORBIDDEN'));
  });
});

describe('PATCH /api/admin/users/make-admin/:userId', () => {
  it("grants the role by an event naming the admin: 200 {id, position}; the user's admin actions then pass", async () => {
    await api.given(anAdmin(ada), registered(tom));
    await api
      .when(ada.patch(`/api/admin/users/make-admin/${tom.id}`))
      .then(200, { id: tom.id, position: aPosition }, [
        { streamId: `user-${tom.id}`, type: 'AdminRoleGranted', data: { userId: tom.id, reason: 'admin' }, metadata: { actorId: ada.id } },
      ]);
    await api.when(tom.post('/api/admin/tags', { name: 'Granted' })).then(201);
  });

  it('making an admin admin again is a no-op: 200 without a position, nothing appended (also for oneself)', async () => {
    await api.given(anAdmin(ada), registered(tom));
    await api.given(ada.patch(`/api/admin/users/make-admin/${tom.id}`));
    await api.when(ada.patch(`/api/admin/users/make-admin/${tom.id}`)).then(200, { id: tom.id }, []);
    await api.when(ada.patch(`/api/admin/users/make-admin/${ada.id}`)).then(200, { id: ada.id }, []);
  });

  it('answers 404 for an unknown user, 401 without a token, 403 for a user (also for themself); appending nothing', async () => {
    await api.given(anAdmin(ada), registered(tom));
    await api.when(ada.patch('/api/admin/users/make-admin/no-such-user')).then(404, anError('NOT_FOUND'));
    await api.when(visitor.patch(`/api/admin/users/make-admin/${tom.id}`)).then(401, anError('UNAUTHENTICATED'));
    await api.when(tom.patch(`/api/admin/users/make-admin/${tom.id}`)).then(403, anError('FORBIDDEN'));
  });

  it('takes no body or {} (what the spec’s clients send), and refuses one with something in it with 400', async () => {
    await api.given(anAdmin(ada), registered(tom), registered(eve));
    const path = `/api/admin/users/make-admin/${tom.id}`;
    await api.when(ada.patch(path, { role: 'user' })).then(400, anError('VALIDATION_FAILED', { details: { role: ['role is not a field of this call'] } }));
    await api.when(ada.send('PATCH', path, '[]')).then(400, anError('VALIDATION_FAILED', { details: { _: ['This call takes no body'] } }));
    await api.when(ada.patch(path, {})).then(200, { id: tom.id, position: aPosition });
    await api.when(ada.patch(`/api/admin/users/make-admin/${eve.id}`)).then(200, { id: eve.id, position: aPosition });
  });

  it.each(['%00', 'a%E2%80%8B', 'a%ED%A0%80'])('refuses the user id %s with 400', async (userId) => {
    await api.given(anAdmin(ada));
    await api.when(ada.patch(`/api/admin/users/make-admin/${userId}`)).then(400, anError('VALIDATION_FAILED'));
  });
});

describe('DELETE /api/admin/users/:userId', () => {
  it("erases another user's account, keeping their posts: 200 {id, position}, AccountErased by the admin; their token is then refused", async () => {
    await api.given(anAdmin(ada), eve.post('/api/posts', { title: 'Eve posts', description: 'Something.', tags: [] }));
    await api
      .when(ada.delete(`/api/admin/users/${eve.id}`, { content: 'keep' }))
      .then(200, { id: eve.id, position: aPosition }, [
        { streamId: `user-${eve.id}`, type: 'AccountErased', data: { userId: eve.id, content: 'kept' }, metadata: { actorId: ada.id } },
      ]);
    await api.when(eve.post('/api/posts', { title: 'x', description: 'y', tags: [] })).then(401, anError('ACCOUNT_DISABLED'));
  });

  it("takes their content from the log when it goes: their posts, their comments on others' posts, not what is deleted already nor others' comments", async () => {
    const [, tomsPost, evesPost, evesGone] = await api.given(
      anAdmin(ada),
      tom.post('/api/posts', { title: 'Tom posts', description: 'Something.', tags: [] }),
      eve.post('/api/posts', { title: 'Eve posts', description: 'Something.', tags: [] }),
      eve.post('/api/posts', { title: 'Eve deletes', description: 'Something.', tags: [] }),
    );
    const [evesComment, , tomsComment] = await api.given(
      eve.post('/api/comments', { postId: tomsPost.id, text: 'Eve on Tom' }),
      eve.post('/api/comments', { postId: evesPost.id, text: 'Eve on Eve' }),
      tom.post('/api/comments', { postId: evesPost.id, text: 'Tom on Eve' }),
      eve.delete(`/api/my-posts/${evesGone.id}`),
    );
    const { appended } = await api.when(ada.delete(`/api/admin/users/${eve.id}`, { content: 'erase' })).then(200, { id: eve.id, position: aPosition });
    expect(appended.map((e) => [e.streamId, e.type]).sort()).toEqual(
      [
        [`comment-${evesComment.id}`, 'CommentRemoved'],
        [`post-${evesPost.id}`, 'PostDeleted'],
        [`user-${eve.id}`, 'AccountErased'],
      ].sort(),
    );
    expect(JSON.stringify(appended.map((e) => [e.streamId, e.data]))).not.toContain(tomsComment.id);
  });

  it('refuses a user (403), the admin themself (422 CANNOT_ERASE_SELF), a body without a choice (400), an unknown user (404), a visitor (401); appends nothing', async () => {
    await api.given(anAdmin(ada), registered(eve), registered(tom));
    await api.when(tom.delete(`/api/admin/users/${eve.id}`, { content: 'keep' })).then(403, anError('FORBIDDEN'));
    await api.when(ada.delete(`/api/admin/users/${ada.id}`, { content: 'keep' })).then(422, anError('CANNOT_ERASE_SELF'));
    for (const body of [undefined, {}, { content: 'maybe' }])
      await api.when(ada.delete(`/api/admin/users/${eve.id}`, body)).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.delete('/api/admin/users/nobody-at-all', { content: 'keep' })).then(404, anError('NOT_FOUND'));
    await api.when(visitor.delete(`/api/admin/users/${eve.id}`, { content: 'keep' })).then(401, anError('UNAUTHENTICATED'));
  });
});

describe('POST /api/admin/announcements', () => {
  it('publishes as the admin: 201 {id, position}, AnnouncementPublished with the trimmed text and the admin as its author', async () => {
    await api.given(anAdmin(ada));
    const { body } = await api
      .when(ada.post('/api/admin/announcements', { title: ' Welcome ', description: 'Be kind.' }))
      .then(201, { id: anId, position: aPosition }, [
        {
          type: 'AnnouncementPublished',
          data: { title: 'Welcome', description: 'Be kind.', authorId: ada.id, authorName: 'Forum Admin', authorPhoto: ada.photo, publishedAt: anyString },
          metadata: { actorId: ada.id },
        },
      ]);
    const { id } = body as { id: string };
    expect((await api.log()).at(-1)).toMatchObject({ streamId: `announcement-${id}`, data: { announcementId: id } });
  });

  it("refuses a missing or blank title and description with 400 and spec §5's messages, and hostile text; appends nothing", async () => {
    await api.given(anAdmin(ada));
    const announce = (body: unknown) => ada.post('/api/admin/announcements', body);
    await api
      .when(announce({}))
      .then(400, anError('VALIDATION_FAILED', { details: { title: ['Title is required'], description: ['Description is required'] } }));
    await api.when(announce({ title: '  ', description: 'ok' })).then(400, anError('VALIDATION_FAILED', { details: { title: ['Title is required'] } }));
    for (const [, title] of hostileText('line'))
      await api.when(announce({ title, description: 'd' })).then(400, anError('VALIDATION_FAILED', { details: { title: anyArray } }));
    for (const [, description] of hostileText('body'))
      await api.when(announce({ title: 't', description })).then(400, anError('VALIDATION_FAILED', { details: { description: anyArray } }));
  });

  it('answers 401 without a token and 403 FORBIDDEN for a user, appending nothing', async () => {
    await api.given(registered(tom));
    await api.when(visitor.post('/api/admin/announcements', { title: 't', description: 'd' })).then(401, anError('UNAUTHENTICATED'));
    await api.when(tom.post('/api/admin/announcements', { title: 't', description: 'd' })).then(403, anError('FORBIDDEN'));
  });
});
