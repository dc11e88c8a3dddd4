import { HEADER_MIN_POSITION, type Me, type PostDetail } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

const PASSWORD = 'Secret#2026';
let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum({ ADMIN_EMAILS: 'Chief@Forum.local, other@forum.local' });
});
afterAll(() => forum?.stop());

async function newAccount(email: string, extra: { roles?: string[]; picture?: string; emailVerified?: boolean } = {}) {
  const { id } = await forum.realm!.accounts.create({ email, password: PASSWORD, name: `Name of ${email}`, ...extra });
  return { id, token: await forum.tokenFor(email, PASSWORD) };
}
const userEvents = async (id: string) => (await forum.store.readStream(`user-${id}`)).events.map((e) => e.type);
const register = (token: string) => forum.api('/api/me/registration', { method: 'POST', token });

describe('the forum record of a user', () => {
  it("a read starts no command: GET /api/me of a member not registered yet answers their token's claims and appends nothing", async () => {
    const carol = await newAccount('carol@forum.local', { picture: 'https://img.example/carol.png' });
    const head = await forum.store.head();
    const answers = await Promise.all(Array.from({ length: 3 }, () => forum.api('/api/me', { token: carol.token })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const me = (await answers[0]!.json()) as Me;
    expect(me).toEqual({
      _id: carol.id,
      name: 'Name of carol@forum.local',
      email: 'carol@forum.local',
      photoURL: 'https://img.example/carol.png',
      handle: null,
      role: 'user',
      isMember: false,
      registeredAt: expect.any(String) as unknown,
      suspension: null,
    });
    expect(await forum.store.head()).toEqual(head);
    expect(await userEvents(carol.id)).toEqual([]);
  });

  it('POST /api/me/registration records the subject from the token once, even with 5 calls at once; GET /api/me then reads the record', async () => {
    const dave = await newAccount('dave@forum.local', { picture: 'https://img.example/dave.png' });
    const answers = await Promise.all(Array.from({ length: 5 }, () => register(dave.token)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const positions = await Promise.all(answers.map(async (a) => ((await a.json()) as { position?: string }).position));
    // each answers the registration's position
    expect(new Set(positions).size).toBe(1);
    expect(await userEvents(dave.id)).toEqual(['UserRegistered', 'HandleChanged']);
    const { events } = await forum.store.readStream(`user-${dave.id}`);
    const me = (await (await forum.api('/api/me', { token: dave.token, headers: { [HEADER_MIN_POSITION]: positions[0]! } })).json()) as Me;
    expect(me).toEqual({
      _id: dave.id,
      name: 'Name of dave@forum.local',
      email: 'dave@forum.local',
      photoURL: 'https://img.example/dave.png',
      handle: 'Name_of_dave_forum_l',
      role: 'user',
      isMember: false,
      registeredAt: (events[0]!.data as { registeredAt: string }).registeredAt,
      suspension: null,
    });
  });

  it('GET /api/me without a token answers 401', async () => {
    expect((await forum.api('/api/me')).status).toBe(401);
  });
});

describe('PATCH /api/me', () => {
  it('changes the display name and photo, and the posts show them', async () => {
    const erin = await newAccount('erin@forum.local');
    const created = await forum.api('/api/posts', { method: 'POST', token: erin.token, json: { title: 'Mine', description: 'By Erin', tags: [] } });
    const { id: postId } = (await created.json()) as { id: string };
    const patched = await forum.api('/api/me', {
      method: 'PATCH',
      token: erin.token,
      json: { displayName: '  Erin E.  ', photoURL: 'https://img.example/erin.png' },
    });
    expect(patched.status).toBe(200);
    const { position } = (await patched.json()) as { position: string };
    expect(patched.headers.get('X-Event-Position')).toBe(position);
    const me = (await (await forum.api('/api/me', { token: erin.token, headers: { [HEADER_MIN_POSITION]: position } })).json()) as Me;
    expect(me).toMatchObject({ name: 'Erin E.', photoURL: 'https://img.example/erin.png' });
    const post = (await (await forum.api(`/api/posts/${postId}`, { headers: { [HEADER_MIN_POSITION]: position } })).json()) as PostDetail;
    expect(post).toMatchObject({ authorName: 'Erin E.', authorPhoto: 'https://img.example/erin.png' });
    expect(await userEvents(erin.id)).toEqual(['UserRegistered', 'PostAuthored', 'ProfileUpdated']);
  });
});

describe("roles are the forum's facts", () => {
  it('answers a verified email of ADMIN_EMAILS as admin before its registration (case ignored), and its registration makes it admin by an event', async () => {
    const chief = await newAccount('chief@forum.local', { emailVerified: true });
    expect(((await (await forum.api('/api/me', { token: chief.token })).json()) as Me).role).toBe('admin');
    expect(await userEvents(chief.id)).toEqual([]);
    const registered = await register(chief.token);
    expect(registered.status).toBe(200);
    const { position } = (await registered.json()) as { position: string };
    const me = (await (await forum.api('/api/me', { token: chief.token, headers: { [HEADER_MIN_POSITION]: position } })).json()) as Me;
    expect(me.role).toBe('admin');
    const { events } = await forum.store.readStream(`user-${chief.id}`);
    expect(events.map((e) => [e.type, (e.data as { reason?: string }).reason])).toEqual([
      ['UserRegistered', undefined],
      ['AdminRoleGranted', 'admin-emails'],
      ['HandleChanged', undefined],
    ]);
  });

  it('does not take the admin role from the token: a realm admin is a plain user of the forum until granted', async () => {
    const realmAdmin = await newAccount('realm-admin@forum.local', { roles: ['admin'] });
    expect((await register(realmAdmin.token)).status).toBe(200);
    const me = (await (await forum.api('/api/me', { token: realmAdmin.token })).json()) as Me;
    expect(me.role).toBe('user');
    // and so it does not see other users' emails
    const alice = await forum.tokenFor('alice@forum.local');
    const created = await forum.api('/api/posts', { method: 'POST', token: alice, json: { title: 'Alice only', description: 'x', tags: [] } });
    const { id, position } = (await created.json()) as { id: string; position: string };
    const asRealmAdmin = (await (
      await forum.api(`/api/posts/${id}`, { token: realmAdmin.token, headers: { [HEADER_MIN_POSITION]: position } })
    ).json()) as PostDetail;
    expect(asRealmAdmin).not.toHaveProperty('authorEmail');
    const asForumAdmin = (await (await forum.api(`/api/posts/${id}`, { token: await forum.tokenFor('admin@forum.local') })).json()) as PostDetail;
    expect(asForumAdmin.authorEmail).toBe('alice@forum.local');
  });
});
