import { FREE_POST_LIMIT, type UserEvent } from '@forum/contracts';
import { FIXED_NOW as at, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { stateAfter, testCommandMeta } from '../testing.ts';
import { decide, type UserCommand } from './decide.ts';
import { evolve, initialUserState, type UserState } from './user.ts';

const meta = testCommandMeta({ actorId: 'u-1' });
const given = stateAfter(evolve, initialUserState);
const when = (state: UserState, command: UserCommand) => decide(command, state, meta);
const registered: UserEvent = { type: 'UserRegistered', data: { userId: 'u-1', email: 'ann@forum.local', name: 'Ann', photoURL: '', registeredAt: at } };
const authored = (n: number): UserEvent[] => Array.from({ length: n }, (_, i) => ({ type: 'PostAuthored', data: { userId: 'u-1', postId: uuidOf(i), at } }));
const post = '11111111-1111-4111-8111-111111111111';

describe('given no record of the subject', () => {
  it('when RegisterUser, then UserRegistered with the email lower-cased', () => {
    expect(
      when(initialUserState, { type: 'RegisterUser', data: { userId: 'u-1', email: 'Ann@Forum.local', name: 'Ann', photoURL: 'p', adminEmails: new Set([]) } }),
    ).toEqual([{ type: 'UserRegistered', data: { userId: 'u-1', email: 'ann@forum.local', name: 'Ann', photoURL: 'p', registeredAt: at } }]);
  });
  it('when RegisterUser with a verified email of ADMIN_EMAILS, then also AdminRoleGranted', () => {
    expect(
      when(initialUserState, {
        type: 'RegisterUser',
        data: { userId: 'u-1', email: 'ann@forum.local', emailVerified: true, name: '', photoURL: '', adminEmails: new Set(['ann@forum.local']) },
      }),
    ).toEqual([
      { type: 'UserRegistered', data: { userId: 'u-1', email: 'ann@forum.local', name: 'Anonymous', photoURL: '', registeredAt: at } },
      { type: 'AdminRoleGranted', data: { userId: 'u-1', reason: 'admin-emails', grantedAt: at } },
    ]);
  });
  it('when RegisterUser with an unverified (or not vouched) email of ADMIN_EMAILS, then only UserRegistered: whoever registers a listed address first is no admin', () => {
    for (const emailVerified of [false, undefined]) {
      expect(
        when(initialUserState, {
          type: 'RegisterUser',
          data: { userId: 'u-1', email: 'ann@forum.local', emailVerified, name: 'Ann', photoURL: '', adminEmails: new Set(['ann@forum.local']) },
        }),
      ).toEqual([{ type: 'UserRegistered', data: { userId: 'u-1', email: 'ann@forum.local', name: 'Ann', photoURL: '', registeredAt: at } }]);
    }
  });
  it('when GrantAdminByEmail, then 404', () => {
    expect(() =>
      when(initialUserState, { type: 'GrantAdminByEmail', data: { email: 'ann@forum.local', emailVerified: true, adminEmails: new Set(['ann@forum.local']) } }),
    ).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('when UpdateProfile, then 404', () => {
    expect(() => when(initialUserState, { type: 'UpdateProfile', data: { displayName: 'x' } })).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
});

describe('given a registered user', () => {
  const state = given([registered]);
  it('when RegisterUser again, then 409 ALREADY_REGISTERED', () => {
    expect(() =>
      when(state, { type: 'RegisterUser', data: { userId: 'u-1', email: 'a@b.c', name: 'A', photoURL: '', adminEmails: new Set([]) } }),
    ).toThrowError(expect.objectContaining({ code: 'ALREADY_REGISTERED' }));
  });
  it('when UpdateProfile with a new name, then ProfileUpdated with only the name', () => {
    expect(when(state, { type: 'UpdateProfile', data: { displayName: 'Annie' } })).toEqual([
      { type: 'ProfileUpdated', data: { userId: 'u-1', changes: { name: 'Annie' }, updatedAt: at } },
    ]);
  });
  it('when UpdateProfile with the same name and a new photo, then ProfileUpdated with only the photo', () => {
    expect(when(state, { type: 'UpdateProfile', data: { displayName: 'Ann', photoURL: 'p.png' } })).toEqual([
      { type: 'ProfileUpdated', data: { userId: 'u-1', changes: { photoURL: 'p.png' }, updatedAt: at } },
    ]);
  });
  it('when UpdateProfile with the same values, then nothing', () => {
    expect(when(state, { type: 'UpdateProfile', data: { displayName: 'Ann', photoURL: '' } })).toEqual([]);
    expect(when(state, { type: 'UpdateProfile', data: {} })).toEqual([]);
  });
  it('when the name and the photo were changed by separate updates, then the state holds both', () => {
    const after = given([
      registered,
      { type: 'ProfileUpdated', data: { userId: 'u-1', changes: { name: 'Annie' }, updatedAt: at } },
      { type: 'ProfileUpdated', data: { userId: 'u-1', changes: { photoURL: 'p.png' }, updatedAt: at } },
    ]);
    expect(after).toMatchObject({ name: 'Annie', photoURL: 'p.png' });
  });
  it('when GrantAdminByEmail with its address of ADMIN_EMAILS now verified, then AdminRoleGranted (admin-emails); and again, nothing', () => {
    const command = { type: 'GrantAdminByEmail' as const, data: { email: 'ann@forum.local', emailVerified: true, adminEmails: new Set(['ann@forum.local']) } };
    const events = when(state, command);
    expect(events).toEqual([{ type: 'AdminRoleGranted', data: { userId: 'u-1', reason: 'admin-emails', grantedAt: at } }]);
    expect(when(given([registered, ...events]), command)).toEqual([]);
  });
  it('when GrantAdminByEmail unverified, or not listed, then nothing', () => {
    expect(
      when(state, { type: 'GrantAdminByEmail', data: { email: 'ann@forum.local', emailVerified: false, adminEmails: new Set(['ann@forum.local']) } }),
    ).toEqual([]);
    expect(
      when(state, { type: 'GrantAdminByEmail', data: { email: 'ann@forum.local', emailVerified: true, adminEmails: new Set(['boss@forum.local']) } }),
    ).toEqual([]);
    expect(when(state, { type: 'GrantAdminByEmail', data: { email: '', emailVerified: true, adminEmails: new Set(['']) } })).toEqual([]);
  });
  it('when GrantAdmin, then AdminRoleGranted; and again, nothing', () => {
    const events = when(state, { type: 'GrantAdmin', data: { reason: 'operator' } });
    expect(events).toEqual([{ type: 'AdminRoleGranted', data: { userId: 'u-1', reason: 'operator', grantedAt: at } }]);
    expect(when(given([registered, ...events]), { type: 'GrantAdmin', data: { reason: 'admin' } })).toEqual([]);
  });
  it(`when AuthorPost with ${FREE_POST_LIMIT - 1} live posts, then PostAuthored`, () => {
    expect(when(given([registered, ...authored(FREE_POST_LIMIT - 1)]), { type: 'AuthorPost', data: { postId: post } })).toEqual([
      { type: 'PostAuthored', data: { userId: 'u-1', postId: post, at } },
    ]);
  });
});

describe(`given a free user with ${FREE_POST_LIMIT} live posts`, () => {
  const atLimit = given([registered, ...authored(FREE_POST_LIMIT)]);
  it('when AuthorPost, then 422 POST_LIMIT_REACHED', () => {
    expect(() => when(atLimit, { type: 'AuthorPost', data: { postId: post } })).toThrowError(
      expect.objectContaining({ kind: 'rule', code: 'POST_LIMIT_REACHED', details: { count: FREE_POST_LIMIT, limit: FREE_POST_LIMIT } }),
    );
  });
  it('when one of them was removed, then AuthorPost passes again', () => {
    const freed = given([registered, ...authored(FREE_POST_LIMIT), { type: 'AuthoredPostRemoved', data: { userId: 'u-1', postId: uuidOf(0), at } }]);
    expect(when(freed, { type: 'AuthorPost', data: { postId: post } })).toHaveLength(1);
  });
  it('when RemoveAuthoredPost of a post not theirs, then nothing', () => {
    expect(when(atLimit, { type: 'RemoveAuthoredPost', data: { postId: post } })).toEqual([]);
  });
});

describe('membership', () => {
  const attempt = '22222222-2222-4222-8222-222222222222';
  const start = (staleAfterMs = 60_000): UserCommand => ({ type: 'StartMembershipPurchase', data: { attemptId: attempt, staleAfterMs } });
  const started: UserEvent = {
    type: 'MembershipPurchaseStarted',
    data: { userId: 'u-1', attemptId: attempt, amountCents: 999, currency: 'USD', startedAt: at },
  };

  it('given a free user, when StartMembershipPurchase, then the attempt at $9.99', () => {
    expect(when(given([registered]), start())).toEqual([started]);
  });
  it('given an attempt under way, when another starts, then 409 PURCHASE_IN_PROGRESS', () => {
    expect(() => when(given([registered, started]), start())).toThrowError(expect.objectContaining({ kind: 'conflict', code: 'PURCHASE_IN_PROGRESS' }));
  });
  it('given an attempt gone stale (a crash after the charge), when another starts, then it resumes the same attempt', () => {
    const later = { ...meta, now: new Date(meta.now.getTime() + 120_000) };
    expect(decide(start(60_000), given([registered, started]), later)).toEqual([]);
  });
  it('given an attempt, when it completes, then MembershipPurchased; and completing it again changes nothing', () => {
    const complete: UserCommand = { type: 'CompleteMembershipPurchase', data: { attemptId: attempt, paymentReference: 'ref-1' } };
    const purchased = when(given([registered, started]), complete);
    expect(purchased).toEqual([
      {
        type: 'MembershipPurchased',
        data: { userId: 'u-1', attemptId: attempt, paymentReference: 'ref-1', amountCents: 999, currency: 'USD', purchasedAt: at },
      },
    ]);
    expect(when(given([registered, started, ...purchased]), complete)).toEqual([]);
  });
  it('given a failed attempt, the user is still free and may try again', () => {
    const failed = when(given([registered, started]), { type: 'FailMembershipPurchase', data: { attemptId: attempt, reason: 'card_declined' } });
    expect(failed).toMatchObject([{ type: 'MembershipPurchaseFailed', data: { reason: 'card_declined' } }]);
    const state = given([registered, started, ...failed]);
    expect(state).toMatchObject({ isMember: false, pendingPurchase: null });
    expect(when(state, start())).toHaveLength(1);
  });
  it('given a member, when StartMembershipPurchase, then 409 ALREADY_MEMBER; and the post limit does not apply (their posts are not counted)', () => {
    const member = given([
      registered,
      started,
      { type: 'MembershipPurchased', data: { userId: 'u-1', attemptId: attempt, paymentReference: 'r', amountCents: 999, currency: 'USD', purchasedAt: at } },
      ...authored(FREE_POST_LIMIT + 3),
    ]);
    expect(() => when(member, start())).toThrowError(expect.objectContaining({ kind: 'conflict', code: 'ALREADY_MEMBER' }));
    expect(when(member, { type: 'AuthorPost', data: { postId: post } })).toEqual([]);
  });
});

describe('erasure and access', () => {
  const erase = (content: 'kept' | 'erased'): UserCommand => ({ type: 'EraseAccount', data: { userId: 'u-1', content } });
  const access = (enabled: boolean): UserCommand => ({ type: 'SetAccountAccess', data: { userId: 'u-1', enabled } });
  it('given a registered user, when EraseAccount, then AccountErased with the choice, and the stream folds to erased', () => {
    const events = when(given([registered]), erase('kept'));
    expect(events).toEqual([{ type: 'AccountErased', data: { userId: 'u-1', content: 'kept', erasedAt: at } }]);
    expect(given([registered, ...events])).toEqual({ status: 'erased' });
  });
  it('given an erased user, when EraseAccount again or SetAccountAccess, then nothing', () => {
    const erased = given([registered, ...when(given([registered]), erase('erased'))]);
    expect(when(erased, erase('kept'))).toEqual([]);
    expect(when(erased, access(false))).toEqual([]);
    expect(() => when(erased, { type: 'UpdateProfile', data: { displayName: 'x' } })).toThrowError(expect.objectContaining({ kind: 'not-found' }));
  });
  it('given a registered user, when disabled and enabled, then each once, folded in turn', () => {
    const disabled = when(given([registered]), access(false));
    expect(disabled).toEqual([{ type: 'AccountDisabled', data: { userId: 'u-1', disabledAt: at } }]);
    expect(given([registered, ...disabled])).toMatchObject({ status: 'registered', disabled: true });
    expect(when(given([registered, ...disabled]), access(false))).toEqual([]);
    const enabled = when(given([registered, ...disabled]), access(true));
    expect(enabled).toEqual([{ type: 'AccountEnabled', data: { userId: 'u-1', enabledAt: at } }]);
    expect(given([registered, ...disabled, ...enabled])).toMatchObject({ status: 'registered', disabled: false });
  });
  it('given no record, when disabled, then the stream starts disabled and a later registration keeps it so', () => {
    const disabled = when(initialUserState, access(false));
    expect(given(disabled)).toEqual({ status: 'unknown', disabled: true });
    expect(given([...disabled, registered])).toMatchObject({ status: 'registered', disabled: true });
  });
});
