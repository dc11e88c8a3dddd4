import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../testing/given.ts';
import { startTestForum, type TestForum } from '../testing/forum.ts';

/**
 * The moderator role through the whole forum (docs/moderation.md, docs/keycloak.md): the forum's
 * stream decides it; the realm keeps a copy (its realm role `moderator`, in its tokens'
 * realm_access.roles), written after the grant or revocation was recorded.
 */
let forum: TestForum;
let admin: { id: string; token: string };
const { registeredUser } = given(() => forum);

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.demoAdmin();
});
afterAll(() => forum?.stop());

const rolesIn = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { realm_access?: { roles?: string[] } }).realm_access?.roles ?? [];

describe('the moderator role', () => {
  it("an admin's grant gives the realm account the role moderator, in its next tokens; the revocation takes it back", async () => {
    const mia = await registeredUser('Mia Moderator');
    const account = () => forum.realm!.accounts.findByEmail(mia.email);
    await forum.call('PUT', `/api/admin/users/${mia.id}/moderator`, { token: admin.token, expect: 200 });
    await waitFor(account, (found) => found?.roles.includes('moderator') === true);
    expect(rolesIn(await forum.signIn(mia.email, mia.password))).toEqual(expect.arrayContaining(['user', 'moderator']));
    await forum.call('DELETE', `/api/admin/users/${mia.id}/moderator`, { token: admin.token, expect: 200 });
    await waitFor(account, (found) => found?.roles.includes('moderator') === false);
    expect(rolesIn(await forum.signIn(mia.email, mia.password))).not.toContain('moderator');
  });

  it('a member cannot grant it (403), and the realm account keeps its roles', async () => {
    const [ann, bob] = [await registeredUser('Ann'), await registeredUser('Bob')];
    await forum.call('PUT', `/api/admin/users/${bob.id}/moderator`, { token: ann.token, expect: 403 });
    expect((await forum.realm!.accounts.findByEmail(bob.email))?.roles).toEqual(['user']);
  });
});
