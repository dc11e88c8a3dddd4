import { describe, expect, it } from 'vitest';
import { handleKey } from '../domain/handle/handle.ts';
import { accountDisabled, aPosition, anError, commandApiSpec, hostileText, member, registered, visitor } from '../testing/index.ts';
import { anyString } from '@forum/platform/testing';

const api = commandApiSpec({ adminEmails: ['chief@forum.local'] });
const erin = member('Erin');

describe('POST /api/me/registration', () => {
  it('records a new subject from its token: 200 {id, position}, UserRegistered and a handle from the name; a known subject appends nothing and answers the position of its record', async () => {
    const { body } = await api.when(erin.post('/api/me/registration')).then(200, { id: erin.id, position: aPosition }, [
      { streamId: `handle-${handleKey('erin')}`, type: 'HandleClaimed', data: { userId: erin.id, handle: 'Erin' } },
      {
        streamId: `user-${erin.id}`,
        type: 'UserRegistered',
        data: { userId: erin.id, email: erin.email, name: 'Erin', photoURL: '' },
        metadata: { actorId: erin.id },
      },
      { streamId: `user-${erin.id}`, type: 'HandleChanged', data: { userId: erin.id, handle: 'Erin', source: 'derived' } },
    ]);
    await api.when(erin.post('/api/me/registration')).then(200, body, []);
  });

  it('registers a subject once when 5 requests arrive at once', async () => {
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => api.when(erin.post('/api/me/registration')).outcome));
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await api.log()).map((e) => e.type)).toEqual(['HandleClaimed', 'UserRegistered', 'HandleChanged']);
  });

  it('makes a verified address of ADMIN_EMAILS an admin at its first request, case ignored, by an event; an unverified one stays a user', async () => {
    const chief = member('Chief', { email: 'Chief@Forum.local', emailVerified: true });
    await api
      .when(chief.post('/api/me/registration'))
      .then(200, { id: chief.id, position: aPosition }, [
        { type: 'HandleClaimed' },
        { type: 'UserRegistered' },
        { type: 'AdminRoleGranted', data: { userId: chief.id, reason: 'admin-emails' } },
        { type: 'HandleChanged' },
      ]);
    const unverified = member('Not Yet Chief', { email: 'chief@forum.local' });
    await api
      .when(unverified.post('/api/me/registration'))
      .then(200, { id: unverified.id, position: aPosition }, [{ type: 'HandleClaimed' }, { type: 'UserRegistered' }, { type: 'HandleChanged' }]);
  });

  it('refuses a visitor with 401 and a body with 400; a disabled account with 401 ACCOUNT_DISABLED, without registering it', async () => {
    await api.when(visitor.post('/api/me/registration')).then(401, anError('UNAUTHENTICATED'));
    await api.when(erin.post('/api/me/registration', { anything: true })).then(400, anError('VALIDATION_FAILED'));
    await api.given(accountDisabled(erin));
    await api.when(erin.post('/api/me/registration')).then(401, anError('ACCOUNT_DISABLED'));
  });
});

describe('PATCH /api/me', () => {
  it('changes the display name (trimmed) and the photo: 200 {id, position}, ProfileUpdated v2 with what changed', async () => {
    await api.given(registered(erin));
    await api
      .when(erin.patch('/api/me', { displayName: '  Erin E.  ', photoURL: 'https://img.example/erin.png' }))
      .then(200, { id: erin.id, position: aPosition }, [
        {
          streamId: `user-${erin.id}`,
          type: 'ProfileUpdated',
          data: { userId: erin.id, changes: { name: 'Erin E.', photoURL: 'https://img.example/erin.png' } },
          metadata: { actorId: erin.id, schemaVersion: 2 },
        },
      ]);
  });

  it('changes nothing, and appends nothing, when the values are the same', async () => {
    await api.given(registered(erin));
    await api.when(erin.patch('/api/me', { displayName: 'Erin' })).then(200, { id: erin.id }, []);
  });

  it.each([
    [{}, '_'],
    [{ displayName: '   ' }, 'displayName'],
    [{ photoURL: 'javascript:alert(1)' }, 'photoURL'],
    [{ photoURL: 'not a url' }, 'photoURL'],
    ...hostileText('line').flatMap(([, value]) => [
      [{ displayName: value }, 'displayName'],
      [{ photoURL: `https://img.example/${value}.png` }, 'photoURL'],
    ]),
  ] as [Record<string, string>, string][])('refuses %j with 400 VALIDATION_FAILED on %s and appends nothing', async (body, field) => {
    await api.given(registered(erin));
    const { body: answer } = await api.when(erin.patch('/api/me', body)).then(400);
    expect(answer).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    expect(Object.keys((answer as { error: { details: object } }).error.details)).toContain(field);
  });

  it.each([
    'http://127.0.0.1:3000/api/me',
    'http://localhost:3000/realms/forum/protocol/openid-connect/logout',
    'http://[::1]:3000/api/me',
    'https://user:secret@img.example/a.png',
    'http://img.example/a.png',
  ])('refuses a photo address pointing at the forum itself or not https: %s', async (photoURL) => {
    await api.given(registered(erin));
    const { body } = await api.when(erin.patch('/api/me', { photoURL })).then(400);
    expect(Object.keys((body as { error: { details: object } }).error.details)).toEqual(['photoURL']);
  });

  it('takes https anywhere else', async () => {
    await api.given(registered(erin));
    await api.when(erin.patch('/api/me', { photoURL: 'https://img.example/a.png' })).then(200);
  });

  it('#39 edge 12: refuses http:// anywhere, this machine too (the pages would never load it), saying "Use an https:// address" as Change Photo does', async () => {
    await api.given(registered(erin));
    for (const photoURL of ['http://localhost:5173/dev.png', 'http://img.example/a.png', 'not a url']) {
      await api.when(erin.patch('/api/me', { photoURL })).then(400, anError('VALIDATION_FAILED', { details: { photoURL: ['Use an https:// address'] } }));
    }
  });

  it('refuses a visitor with 401', async () => {
    await api.when(visitor.patch('/api/me', { displayName: 'Nobody' })).then(401, anError('UNAUTHENTICATED'));
  });
});

describe('DELETE /api/me', () => {
  it("erases the caller's account, keeping their posts: 200 {id, position}, AccountErased without personal data; their token is then refused, and erasing again answers 200 without a position", async () => {
    const [{ id: postId }] = await api.given(erin.post('/api/posts', { title: 'Mine', description: 'By Erin', tags: [] }));
    await api
      .when(erin.delete('/api/me', { content: 'keep' }))
      .then(200, { id: erin.id, position: aPosition }, [
        { streamId: `user-${erin.id}`, type: 'AccountErased', data: { userId: erin.id, content: 'kept', erasedAt: anyString }, metadata: { actorId: erin.id } },
      ]);
    await api.when(erin.post('/api/posts', { title: 'Back', description: 'Again', tags: [] })).then(401, anError('ACCOUNT_DISABLED'));
    await api.when(erin.post('/api/comments', { postId, text: 'hello' })).then(401, anError('ACCOUNT_DISABLED'));
    await api.when(erin.delete('/api/me', { content: 'keep' })).then(200, { id: erin.id }, []);
  });

  it("refuses a visitor with 401, a disabled account with 401 ACCOUNT_DISABLED, and a body without content 'keep' or 'erase' with 400; appends nothing", async () => {
    await api.when(visitor.delete('/api/me', { content: 'keep' })).then(401, anError('UNAUTHENTICATED'));
    await api.given(registered(erin));
    for (const body of [undefined, {}, { content: 'maybe' }]) {
      await api.when(erin.delete('/api/me', body)).then(400, anError('VALIDATION_FAILED'));
    }
    await api.given(accountDisabled(erin));
    await api.when(erin.delete('/api/me', { content: 'keep' })).then(401, anError('ACCOUNT_DISABLED'));
  });
});
