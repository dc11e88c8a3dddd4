import { FIXED_NOW as at } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { stateAfter, testCommandMeta } from '../testing.ts';
import { evolve as evolveUser, initialUserState } from '../user/user.ts';
import { decide, type HandleCommand } from './decide.ts';
import { handleBase, handleCandidates } from './derive.ts';
import { evolve, initialHandleState, type HandleState } from './handle.ts';

const meta = testCommandMeta({ actorId: 'u-ann' });
const userId = 'u-ann';
const user = (handle: string | null) =>
  stateAfter(
    evolveUser,
    initialUserState,
  )([
    { type: 'UserRegistered', data: { userId, email: 'ann@forum.test', name: 'Ann', photoURL: '', registeredAt: at } },
    ...(handle === null ? [] : [{ type: 'HandleChanged' as const, data: { userId, handle, source: 'derived' as const, changedAt: at } }]),
  ]);
const free: HandleState = initialHandleState;
const heldBy = (holder: string): HandleState => evolve(initialHandleState, { type: 'HandleClaimed', data: { userId: holder, handle: 'x', claimedAt: at } });
const change = (handle: string, from: string | null, claimed: HandleState): HandleCommand => ({
  type: 'ChangeHandle',
  data: { userId, handle, user: user(from), claimed },
});

describe('handleBase and handleCandidates', () => {
  it.each([
    ['Zoë Martin-Ruiz', 'Zoe_Martin_Ruiz'],
    ['  ann  ', 'ann'],
    ['Jo', 'Jo_'],
    ['李小龍', 'member'],
    ['Ångström & Sons, Ltd.', 'Angstrom_Sons_Ltd'],
    ['A very long display name indeed', 'A_very_long_display'],
  ])('%j → %j', (name, base) => {
    expect(handleBase(name)).toBe(base);
  });
  it('tries the chosen handle first when valid, then base, base1…, skipping a reserved one and an invalid choice', () => {
    expect(handleCandidates('Ann', 'ann.k').slice(0, 3)).toEqual(['ann.k', 'Ann', 'Ann1']);
    expect(handleCandidates('Admin', 'a b').slice(0, 2)).toEqual(['Admin1', 'Admin2']);
    expect(handleCandidates('A very long display name indeed')[9]).toBe('A_very_long_display9');
  });
});

describe('given a member without a handle', () => {
  it('when GiveHandle with a free handle, then HandleClaimed and HandleChanged with its source', () => {
    expect(decide({ type: 'GiveHandle', data: { userId, handle: 'ann', source: 'registration', user: user(null), claimed: free } }, meta)).toEqual({
      user: [{ type: 'HandleChanged', data: { userId, handle: 'ann', source: 'registration', changedAt: at } }],
      claimed: [{ type: 'HandleClaimed', data: { userId, handle: 'ann', claimedAt: at } }],
      released: [],
    });
  });
  it('when GiveHandle with a taken handle, then 409 HANDLE_TAKEN', () => {
    const command: HandleCommand = { type: 'GiveHandle', data: { userId, handle: 'ann', source: 'derived', user: user(null), claimed: heldBy('u-bob') } };
    expect(() => decide(command, meta)).toThrowError(expect.objectContaining({ code: 'HANDLE_TAKEN' }));
  });
  it('when ChangeHandle, then claimed and changed, nothing released', () => {
    const decision = decide(change('annie', null, free), meta);
    expect([decision.claimed.length, decision.released.length, decision.user.length]).toEqual([1, 0, 1]);
  });
});

describe('given a member with a handle', () => {
  it('when GiveHandle, then nothing (they keep theirs)', () => {
    expect(decide({ type: 'GiveHandle', data: { userId, handle: 'other', source: 'derived', user: user('ann'), claimed: free } }, meta)).toEqual({
      user: [],
      claimed: [],
      released: [],
    });
  });
  it('when ChangeHandle to the same handle, then nothing', () => {
    expect(decide(change('ann', 'ann', heldBy(userId)), meta)).toEqual({ user: [], claimed: [], released: [] });
  });
  it('when ChangeHandle to another case of it, then HandleChanged alone', () => {
    expect(decide(change('ANN', 'ann', heldBy(userId)), meta)).toEqual({
      user: [{ type: 'HandleChanged', data: { userId, handle: 'ANN', source: 'profile', changedAt: at } }],
      claimed: [],
      released: [],
    });
  });
  it('when ChangeHandle to a free one, then the old released, the new claimed', () => {
    expect(decide(change('annie', 'ann', free), meta)).toEqual({
      user: [{ type: 'HandleChanged', data: { userId, handle: 'annie', source: 'profile', changedAt: at } }],
      claimed: [{ type: 'HandleClaimed', data: { userId, handle: 'annie', claimedAt: at } }],
      released: [{ type: 'HandleReleased', data: { userId, handle: 'ann', releasedAt: at } }],
    });
  });
  it('when ChangeHandle to another member’s, then 409 HANDLE_TAKEN', () => {
    expect(() => decide(change('bob', 'ann', heldBy('u-bob')), meta)).toThrowError(expect.objectContaining({ kind: 'conflict', code: 'HANDLE_TAKEN' }));
  });
});

describe('a handle’s stream', () => {
  it('is free again once its holder releases it; a release by another changes nothing', () => {
    const held = heldBy('u-ann');
    expect(evolve(held, { type: 'HandleReleased', data: { userId: 'u-bob', handle: 'x', releasedAt: at } })).toEqual({ holder: 'u-ann' });
    expect(evolve(held, { type: 'HandleReleased', data: { userId: 'u-ann', handle: 'x', releasedAt: at } })).toEqual({ holder: null });
  });
});
