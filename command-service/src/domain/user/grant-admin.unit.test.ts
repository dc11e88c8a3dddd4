import type { UserEvent } from '@forum/contracts';
import { FIXED_NOW as at } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { stateAfter, testCommandMeta } from '../testing.ts';
import { decide } from './decide.ts';
import { evolve, initialUserState } from './user.ts';

/** 'Make Admin' (PATCH /api/admin/users/make-admin/:userId): the GrantAdmin rules as the admin area uses them. */
const meta = testCommandMeta({ actorId: 'admin-1' });
const given = stateAfter(evolve, initialUserState);
const makeAdmin = { type: 'GrantAdmin' as const, data: { reason: 'admin' as const } };
const registered: UserEvent = { type: 'UserRegistered', data: { userId: 'u-2', email: 'bob@forum.local', name: 'Bob', photoURL: '', registeredAt: at } };

describe('given no record of the user', () => {
  it('when GrantAdmin by an admin, then 404', () => {
    expect(() => decide(makeAdmin, initialUserState, meta)).toThrowError(expect.objectContaining({ kind: 'not-found', code: 'NOT_FOUND' }));
  });
});

describe('given a plain user', () => {
  it("when GrantAdmin by an admin, then AdminRoleGranted with reason 'admin'", () => {
    expect(decide(makeAdmin, given([registered]), meta)).toEqual([{ type: 'AdminRoleGranted', data: { userId: 'u-2', reason: 'admin', grantedAt: at } }]);
  });
});

describe('given an admin', () => {
  const state = given([registered, { type: 'AdminRoleGranted', data: { userId: 'u-2', reason: 'admin-emails', grantedAt: at } }]);
  it('when GrantAdmin again, then nothing: making an admin admin again is a no-op (and there is no demotion)', () => {
    expect(decide(makeAdmin, state, meta)).toEqual([]);
    expect(state).toMatchObject({ role: 'admin' });
  });
});
