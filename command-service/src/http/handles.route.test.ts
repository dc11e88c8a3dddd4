import { foldHandle } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { handleKey } from '../domain/handle/handle.ts';
import { aPosition, anError, commandApiSpec, member, registered, type Member } from '../testing/index.ts';

/**
 * Handles (docs/notifications.md#handles): given at registration, changed by PATCH /api/me, unique ignoring case.
 * One append writes its streams in the order of their ids: two handles' streams come in the order of their
 * keys (digests, fixed for a given handle), before the member's `user-` stream.
 */
const api = commandApiSpec();
const stream = (handle: string) => `handle-${handleKey(handle)}`;
const register = (who: Member) => who.post('/api/me/registration');
/** The handle each member holds now, from the log's HandleChanged events. */
async function handles(): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  for (const e of await api.log()) if (e.type === 'HandleChanged') held.set((e.data as { userId: string }).userId, (e.data as { handle: string }).handle);
  return held;
}

describe('a handle at registration', () => {
  it('takes the handle the member chose in the realm (the token’s claim) when it is valid and free', async () => {
    const zoe = member('Zoë Martin', { handle: 'zoe.m' });
    await api
      .when(register(zoe))
      .then(200, { id: zoe.id, position: aPosition }, [
        { streamId: stream('zoe.m'), type: 'HandleClaimed', data: { userId: zoe.id, handle: 'zoe.m' } },
        { type: 'UserRegistered' },
        { streamId: `user-${zoe.id}`, type: 'HandleChanged', data: { userId: zoe.id, handle: 'zoe.m', source: 'registration' } },
      ]);
  });

  it('makes one from the name when the chosen one breaks the rules, is reserved or is taken (ignoring case): base, then base1, base2…', async () => {
    const first = member('Zoë Martin-Ruiz', { handle: 'Admin' });
    await api
      .when(register(first))
      .then(200, undefined, [
        { streamId: stream('Zoe_Martin_Ruiz'), type: 'HandleClaimed', data: { handle: 'Zoe_Martin_Ruiz' } },
        { type: 'UserRegistered' },
        { type: 'HandleChanged', data: { handle: 'Zoe_Martin_Ruiz', source: 'derived' } },
      ]);
    const second = member('zoe martin ruiz', { handle: 'ZOE_MARTIN_RUIZ' });
    await api
      .when(register(second))
      .then(200, undefined, [
        { streamId: stream('zoe_martin_ruiz1'), type: 'HandleClaimed', data: { handle: 'zoe_martin_ruiz1' } },
        { type: 'UserRegistered' },
        { type: 'HandleChanged', data: { handle: 'zoe_martin_ruiz1', source: 'derived' } },
      ]);
    const third = member('Zoe Martin Ruiz', { handle: 'a b' });
    await api.given(register(third));
    expect((await handles()).get(third.id)).toBe('Zoe_Martin_Ruiz2');
  });

  it('gives a member registered before handles one at their next registration call, once', async () => {
    const old = member('Olga Old');
    await api.given(registered(old));
    await api.when(register(old)).then(200, { id: old.id, position: aPosition }, [
      { streamId: stream('Olga_Old'), type: 'HandleClaimed' },
      { streamId: `user-${old.id}`, type: 'HandleChanged', data: { handle: 'Olga_Old', source: 'derived' } },
    ]);
    await api.when(register(old)).then(200, { id: old.id, position: aPosition }, []);
  });

  it('gives 8 members of one name registering at once 8 handles, distinct ignoring case, each claimed once', async () => {
    const sams = Array.from({ length: 8 }, () => member('Sam'));
    const outcomes = await Promise.all(sams.map((sam) => api.when(register(sam)).outcome));
    expect(outcomes.map((o) => o.status)).toEqual(sams.map(() => 200));
    const held = await handles();
    expect(new Set(sams.map((sam) => foldHandle(held.get(sam.id)!))).size).toBe(8);
    const claims = (await api.log()).filter((e) => e.type === 'HandleClaimed');
    expect(new Set(claims.map((e) => e.streamId)).size).toBe(8);
    expect(claims).toHaveLength(8);
  });

  it('after the numbered handles, a random suffix', async () => {
    const many = Array.from({ length: 11 }, () => member('Kim'));
    for (const kim of many) await api.given(register(kim));
    const held = await handles();
    expect(many.slice(0, 10).map((kim) => held.get(kim.id))).toEqual(['Kim', ...Array.from({ length: 9 }, (_, n) => `Kim${n + 1}`)]);
    expect(held.get(many[10]!.id)).toMatch(/^Kim_\d{4,6}$/);
  });
});

describe('PATCH /api/me {handle}', () => {
  const ann = member('Ann');
  const ben = member('Ben');

  it('claims the new handle, releases the old one, and records it on the member’s stream; the same handle again appends nothing', async () => {
    await api.given(register(ann));
    await api.when(ann.patch('/api/me', { handle: 'ann.k' })).then(200, { id: ann.id, position: aPosition }, [
      { streamId: stream('Ann'), type: 'HandleReleased', data: { userId: ann.id, handle: 'Ann' } },
      { streamId: stream('ann.k'), type: 'HandleClaimed', data: { userId: ann.id, handle: 'ann.k' } },
      { streamId: `user-${ann.id}`, type: 'HandleChanged', data: { userId: ann.id, handle: 'ann.k', source: 'profile' } },
    ]);
    await api.when(ann.patch('/api/me', { handle: 'ann.k' })).then(200, { id: ann.id }, []);
  });

  it('a change of case only is a change, on the same handle’s stream (nothing claimed or released)', async () => {
    await api.given(register(ann));
    await api
      .when(ann.patch('/api/me', { handle: 'ANN' }))
      .then(200, { id: ann.id, position: aPosition }, [{ streamId: `user-${ann.id}`, type: 'HandleChanged', data: { handle: 'ANN' } }]);
  });

  it('answers 409 HANDLE_TAKEN for another member’s handle in any case, an erased member’s too; a released one is free again', async () => {
    await api.given(register(ann), register(ben));
    await api.when(ben.patch('/api/me', { handle: 'aNN' })).then(409, anError('HANDLE_TAKEN', { message: 'That handle is taken: choose another' }));
    await api.when(ben.patch('/api/me', { handle: 'aNN', displayName: 'Benjamin' })).then(409, anError('HANDLE_TAKEN'));
    await api.given(ann.patch('/api/me', { handle: 'annie' }));
    await api
      .when(ben.patch('/api/me', { handle: 'ann' }))
      .then(200, { id: ben.id, position: aPosition }, [
        { type: 'HandleClaimed', data: { handle: 'ann' } },
        { type: 'HandleReleased', data: { handle: 'Ben' } },
        { type: 'HandleChanged' },
      ]);
    await api.given(ann.delete('/api/me', { content: 'keep' }));
    await api.when(ben.patch('/api/me', { handle: 'Annie' })).then(409, anError('HANDLE_TAKEN'));
  });

  it('changes the name and the handle in one request', async () => {
    await api.given(register(ann));
    await api
      .when(ann.patch('/api/me', { displayName: 'Ann K', handle: 'annk' }))
      .then(200, { id: ann.id, position: aPosition }, [
        { type: 'HandleReleased' },
        { type: 'HandleClaimed' },
        { type: 'ProfileUpdated' },
        { type: 'HandleChanged' },
      ]);
  });

  it('two members asking for one handle at once: one gets it, the other 409 HANDLE_TAKEN', async () => {
    await api.given(register(ann), register(ben));
    const outcomes = await Promise.all([ann, ben].map((who) => api.when(who.patch('/api/me', { handle: 'Twin' })).outcome));
    expect(outcomes.map((o) => o.status).sort()).toEqual([200, 409]);
    expect((await api.log()).filter((e) => e.type === 'HandleClaimed' && e.streamId === stream('twin'))).toHaveLength(1);
  });

  it.each([
    ['ab', 'Handle must be at least 3 characters'],
    ['a'.repeat(21), 'Handle must be at most 20 characters'],
    ['ann..k', 'Handle may use letters a-z, digits and _, with single . or - between them (not first or last)'],
    ['.ann', 'Handle may use letters a-z, digits and _, with single . or - between them (not first or last)'],
    ['zoë', 'Handle may use letters a-z, digits and _, with single . or - between them (not first or last)'],
    ['Admin', 'Handle is reserved: choose another'],
  ])('refuses %j with 400 and the rule’s message, appending nothing', async (handle, message) => {
    await api.given(register(ann));
    const { body } = await api.when(ann.patch('/api/me', { handle })).then(400, anError('VALIDATION_FAILED'));
    expect((body as { error: { details: Record<string, string[]> } }).error.details.handle).toContain(message);
  });
});
