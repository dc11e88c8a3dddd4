import { type Me, type Notifications } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';
import { expectStatus } from '../testing/expect-status.ts';
import { given } from '../testing/given.ts';
import { calls } from './calls.ts';

/**
 * The signed-in caller's forum record is kept in memory between requests (ViewerCache); each test
 * reads it once first, so that it is kept, then changes it and reads again at the command's
 * position: the change shows at once, never the record kept from before.
 */
let forum: TestForum;
/** The demo admin's token: they grant roles and erase accounts here. */
let adminToken: string;

beforeAll(async () => {
  forum = await startTestForum();
  adminToken = (await forum.demoAdmin()).token;
});
afterAll(() => forum?.stop());

const { after, makeAdmin, streamTypes } = calls(() => forum);
const { registeredUser, createPost } = given(() => forum);
const me = (token: string, position?: string) => forum.api('/api/me', { token, ...(position ? after(position) : {}) });

describe("a signed-in caller's kept forum record", () => {
  it('answers from memory while the users projection has not moved: a row changed behind its back is not seen until it moves', async () => {
    const user = await registeredUser('Kept Name');
    expect(await expectStatus<Me>(me(user.token))).toMatchObject({ name: 'Kept Name' });
    await forum.db.raw('UPDATE read.users SET name = ? WHERE id = ?', ['Changed Behind', user.id]);
    expect(await expectStatus<Me>(me(user.token))).toMatchObject({ name: 'Kept Name' });
    // any event the users projection passes moves its checkpoint, and every kept record goes
    const other = await forum.newUser('Someone Else');
    const { position } = await expectStatus<{ position: string }>(
      forum.api('/api/posts', { method: 'POST', token: other.token, json: { title: 'Moves', description: 'The log', tags: [] } }),
      201,
    );
    expect(await expectStatus<Me>(me(user.token, position))).toMatchObject({ name: 'Changed Behind' });
  });

  it("survives what the users projection only passes by (others' posts and votes), and gives way to any change to the users read model", async () => {
    const user = await registeredUser('Steady Name');
    const author = await registeredUser('Busy Author');
    const voter = await registeredUser('Busy Voter');
    expect(await expectStatus<Me>(me(user.token))).toMatchObject({ name: 'Steady Name' });
    await forum.db.raw('UPDATE read.users SET name = ? WHERE id = ?', ['Seen Later', user.id]);
    const post = await createPost(author.token);
    const vote = await expectStatus<{ position: string }>(forum.api(`/api/posts/${post.id}/vote`, { method: 'PUT', token: voter.token, json: { vote: 'up' } }));
    expect(await expectStatus<Me>(me(user.token, vote.position))).toMatchObject({ name: 'Steady Name' });
    // another member's profile update is a change to the users read model: every kept record goes
    const { position } = await expectStatus<{ position: string }>(
      forum.api('/api/me', { method: 'PATCH', token: voter.token, json: { displayName: 'Renamed Voter' } }),
    );
    expect(await expectStatus<Me>(me(user.token, position))).toMatchObject({ name: 'Seen Later' });
  });

  it('gives way to a role change: made admin, the admin routes answer at once at the position', async () => {
    const user = await registeredUser('Soon Admin');
    expect((await forum.api('/api/admin/stats', { token: user.token })).status).toBe(403);
    expect((await forum.api('/api/admin/stats', { token: user.token })).status).toBe(403);
    const { position } = await expectStatus<{ position: string }>(makeAdmin(adminToken, user.id));
    expect((await forum.api('/api/admin/stats', { token: user.token, ...after(position) })).status).toBe(200);
    expect(await expectStatus<Me>(me(user.token))).toMatchObject({ role: 'admin' });
  });

  it('gives way to a profile update: the new name is shown at once at the position', async () => {
    const user = await registeredUser('Old Name');
    expect(await expectStatus<Me>(me(user.token))).toMatchObject({ name: 'Old Name' });
    const { position } = await expectStatus<{ position: string }>(
      forum.api('/api/me', { method: 'PATCH', token: user.token, json: { displayName: 'New Name' } }),
    );
    expect(await expectStatus<Me>(me(user.token, position))).toMatchObject({ name: 'New Name' });
  });

  it("gives way to a warning: at the warning's position the member's notifications hold it, and their record answers as before", async () => {
    const user = await registeredUser('Warned Once');
    const before = await expectStatus<Me>(me(user.token));
    expect(await expectStatus<Notifications>(forum.api('/api/me/notifications', { token: user.token }))).toMatchObject({ unread: 0, totalCount: 0 });
    const { id, position } = await expectStatus<{ id: string; position: string }>(
      forum.api(`/api/admin/warn-user/${user.email}`, { method: 'POST', token: adminToken, json: { reason: 'Mind your words' } }),
      201,
    );
    const seen = await expectStatus<Notifications>(forum.api('/api/me/notifications', { token: user.token, ...after(position) }));
    expect(seen).toMatchObject({ unread: 1, totalCount: 1, notifications: [{ _id: id, kind: 'warning', reason: 'Mind your words', read: false }] });
    expect(await expectStatus<Me>(me(user.token, position))).toEqual(before);
  });

  it("gives way to an admin's erasure of the account: its token is refused at once at the position", async () => {
    const user = await registeredUser('Erased By Admin');
    await expectStatus<Me>(me(user.token));
    const { position } = await expectStatus<{ position: string }>(
      forum.api(`/api/admin/users/${user.id}`, { method: 'DELETE', token: adminToken, json: { content: 'keep' } }),
    );
    expect(await expectStatus(me(user.token, position), 401)).toMatchObject({ error: { code: 'ACCOUNT_DISABLED', message: 'This account has been deleted.' } });
    expect((await me(user.token)).status).toBe(401);
  });

  it("gives way to the member's own erasure: their token is refused at once at the position", async () => {
    const user = await registeredUser('Erased By Self');
    await expectStatus<Me>(me(user.token));
    const { position } = await expectStatus<{ position: string }>(forum.api('/api/me', { method: 'DELETE', token: user.token, json: { content: 'keep' } }));
    expect((await me(user.token, position)).status).toBe(401);
  });

  it('gives way to a disabling through the realm, and to the enabling after it, without a position (the realm answers once the read side has applied it)', async () => {
    const user = await registeredUser('Disabled Twice');
    await expectStatus<Me>(me(user.token));
    const realmAccess = (enabled: boolean) => forum.api(`/admin/realms/forum/users/${user.id}`, { method: 'PUT', token: adminToken, json: { enabled } });
    expect((await realmAccess(false)).status).toBe(204);
    expect(await expectStatus(me(user.token), 401)).toMatchObject({ error: { code: 'ACCOUNT_DISABLED' } });
    expect((await realmAccess(true)).status).toBe(204);
    await expectStatus<Me>(me(user.token));
  });

  it('answers 10 first requests at once of a subject not registered yet from their token, appending nothing, and their record once registered', async () => {
    const user = await forum.newUser('Ten At Once');
    const answers = await Promise.all(Array.from({ length: 10 }, () => me(user.token)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(await streamTypes(`user-${user.id}`)).toEqual([]);
    await forum.register(user.token);
    expect(await streamTypes(`user-${user.id}`)).toEqual(['UserRegistered', 'HandleChanged']);
    expect(await expectStatus<Me>(me(user.token))).toMatchObject({ _id: user.id, name: 'Ten At Once' });
  });
});
