import type { Role } from '@forum/contracts';
import { FIXED_NOW as at, uuidOf } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { refuseSuspended } from '../actor.ts';
import { addedComment, livePost, stateAfter, testCommandMeta } from '../testing.ts';
import { evolve, initialUserState, suspensionAt, type UserStreamEvent } from '../user/user.ts';
import { decide, type MemberModerationCommand, type SuspendMember } from './member.ts';

const meta = testCommandMeta({ actorId: 'u-ada' });
const given = stateAfter(evolve, initialUserState);
const registered: UserStreamEvent = {
  type: 'UserRegistered',
  data: { userId: 'u-bob', email: 'bob@forum.local', name: 'Bob', photoURL: '', registeredAt: at },
};
const moderator: UserStreamEvent = { type: 'ModeratorRoleGranted', data: { userId: 'u-bob', grantedBy: 'u-ada', grantedAt: at } };
const admin: UserStreamEvent = { type: 'AdminRoleGranted', data: { userId: 'u-bob', reason: 'operator', grantedAt: at } };
const ada = { id: 'u-ada', role: 'admin' as Role };
const mo = { id: 'u-mo', role: 'moderator' as Role };
const when = (events: UserStreamEvent[], command: MemberModerationCommand, now = meta) => decide(command, given(events), now);
const suspend = (more: Partial<SuspendMember['data']> = {}): SuspendMember => ({
  type: 'SuspendMember',
  data: { actor: ada, reason: 'Spam', period: 'day', ...more },
});
const later = (ms: number) => testCommandMeta({ now: new Date(Date.parse(at) + ms) });
const DAY = 24 * 60 * 60 * 1000;

describe('the moderator role (#43.1)', () => {
  const grant: MemberModerationCommand = { type: 'GrantModerator', data: { actorId: 'u-ada' } };
  const revoke: MemberModerationCommand = { type: 'RevokeModerator', data: { actorId: 'u-ada' } };
  it('given a member, when GrantModerator, then ModeratorRoleGranted, and the member is a moderator', () => {
    const events = when([registered], grant);
    expect(events).toEqual([{ type: 'ModeratorRoleGranted', data: { userId: 'u-bob', grantedBy: 'u-ada', grantedAt: at } }]);
    expect(given([registered, ...events])).toMatchObject({ role: 'moderator' });
  });
  it('given a moderator, when GrantModerator again, then nothing; when RevokeModerator, then ModeratorRoleRevoked and a member again', () => {
    expect(when([registered, moderator], grant)).toEqual([]);
    const events = when([registered, moderator], revoke);
    expect(events).toEqual([{ type: 'ModeratorRoleRevoked', data: { userId: 'u-bob', revokedBy: 'u-ada', revokedAt: at } }]);
    expect(given([registered, moderator, ...events])).toMatchObject({ role: 'user' });
  });
  it('given a member, when RevokeModerator, then nothing', () => {
    expect(when([registered], revoke)).toEqual([]);
  });
  it('given an admin, when GrantModerator or RevokeModerator, then 409 ALREADY_ADMIN', () => {
    for (const command of [grant, revoke])
      expect(() => when([registered, admin], command)).toThrowError(expect.objectContaining({ kind: 'conflict', code: 'ALREADY_ADMIN' }));
  });
  it('given no member (or an erased one), then 404', () => {
    expect(() => when([], grant)).toThrowError(expect.objectContaining({ kind: 'not-found' }));
    expect(() => when([registered, { type: 'AccountErased', data: { userId: 'u-bob', content: 'kept', erasedAt: at } }], revoke)).toThrowError(
      expect.objectContaining({ kind: 'not-found' }),
    );
  });
});

describe('suspensions (#43.5)', () => {
  it('when SuspendMember for a day, then MemberSuspended until the clock plus a day; a week: plus seven', () => {
    expect(when([registered], suspend())).toEqual([
      {
        type: 'MemberSuspended',
        data: { userId: 'u-bob', reason: 'Spam', until: new Date(Date.parse(at) + DAY).toISOString(), suspendedBy: 'u-ada', suspendedAt: at },
      },
    ]);
    expect(when([registered], suspend({ period: 'week' }))).toMatchObject([{ data: { until: new Date(Date.parse(at) + 7 * DAY).toISOString() } }]);
  });
  it('when until lifted, then until null; until a date, then that date (normalised)', () => {
    expect(when([registered], suspend({ period: 'indefinite' }))).toMatchObject([{ data: { until: null } }]);
    expect(when([registered], suspend({ period: 'date', until: '2026-12-02T15:00:00+01:00' }))).toMatchObject([
      { data: { until: '2026-12-02T14:00:00.000Z' } },
    ]);
  });
  it.each([
    ['in the past', '2026-01-01T00:00:00Z', 'The suspension must end in the future'],
    ['now', at, 'The suspension must end in the future'],
    ['more than SUSPENSION_MAX_DAYS away', '2040-01-01T00:00:00Z', 'A suspension ends at most 3650 days from now: longer, suspend until lifted'],
  ])('when until a date %s, then 400 on until', (_, until, message) => {
    expect(() => when([registered], suspend({ period: 'date', until }))).toThrowError(
      expect.objectContaining({ kind: 'invalid', code: 'VALIDATION_FAILED', details: { until: [message] } }),
    );
  });
  it('names the reported item it comes from: a post of the member (postId itself), a comment (its post); 404 for an item of someone else', () => {
    const postId = uuidOf(1);
    const commentId = uuidOf(2);
    expect(when([registered], suspend({ about: { kind: 'post', id: postId, post: livePost('u-bob') } }))).toMatchObject([
      { data: { about: { kind: 'post', id: postId, postId } } },
    ]);
    expect(when([registered], suspend({ about: { kind: 'comment', id: commentId, comment: addedComment(postId, 'u-bob', 'Buy') } }))).toMatchObject([
      { data: { about: { kind: 'comment', id: commentId, postId } } },
    ]);
    expect(() => when([registered], suspend({ about: { kind: 'post', id: postId, post: livePost('u-carl') } }))).toThrowError(
      expect.objectContaining({ kind: 'not-found', message: 'No such post by this member' }),
    );
  });
  it('refuses an admin as target, oneself, and a moderator suspending a moderator: 403 STAFF_PROTECTED; an admin suspends a moderator', () => {
    const protectedBy = (message: string): unknown => expect.objectContaining({ kind: 'forbidden', code: 'STAFF_PROTECTED', message });
    expect(() => when([registered, admin], suspend())).toThrowError(protectedBy('An admin cannot be suspended.'));
    expect(() => when([registered], suspend({ actor: { id: 'u-bob', role: 'moderator' } }))).toThrowError(protectedBy('You cannot suspend yourself.'));
    expect(() => when([registered, moderator], suspend({ actor: mo }))).toThrowError(
      protectedBy("A moderator cannot act on a moderator's or an admin's account or content: ask an admin."),
    );
    expect(when([registered, moderator], suspend())).toHaveLength(1);
    expect(when([registered], suspend({ actor: mo }))).toHaveLength(1);
  });

  describe('given a suspension for a day', () => {
    const suspended = [registered, ...when([registered], suspend())];
    it('is in force until its end by the clock, and then over with no event', () => {
      expect(suspensionAt(given(suspended), later(DAY - 1).now)).toEqual({ reason: 'Spam', until: new Date(Date.parse(at) + DAY).toISOString() });
      expect(suspensionAt(given(suspended), later(DAY).now)).toBeNull();
    });
    it("refuses the member's writes with 403 MEMBER_SUSPENDED, its reason and end, while it lasts", () => {
      const until = new Date(Date.parse(at) + DAY).toISOString();
      expect(() => refuseSuspended(given(suspended), later(1000).now)).toThrowError(
        expect.objectContaining({
          kind: 'forbidden',
          code: 'MEMBER_SUSPENDED',
          message: `Your account is suspended until ${until}: Spam`,
          details: { reason: 'Spam', until },
        }),
      );
      expect(() => refuseSuspended(given(suspended), later(DAY + 1).now)).not.toThrow();
    });
    it('when LiftSuspension, then SuspensionLifted; once over by the clock, nothing', () => {
      const lift: MemberModerationCommand = { type: 'LiftSuspension', data: { actor: ada } };
      const events = when(suspended, lift);
      expect(events).toEqual([{ type: 'SuspensionLifted', data: { userId: 'u-bob', liftedBy: 'u-ada', liftedAt: at } }]);
      expect(suspensionAt(given([...suspended, ...events]), meta.now)).toBeNull();
      expect(when(suspended, lift, later(DAY))).toEqual([]);
      expect(when([registered], lift)).toEqual([]);
    });
    it('when SuspendMember again, then the new one replaces it', () => {
      const again = when(suspended, suspend({ period: 'indefinite', reason: 'Again' }));
      expect(suspensionAt(given([...suspended, ...again]), later(30 * DAY).now)).toEqual({ reason: 'Again', until: null });
    });
  });

  it('an indefinite suspension says so in its refusal', () => {
    const suspended = given([registered, ...when([registered], suspend({ period: 'indefinite' }))]);
    expect(() => refuseSuspended(suspended, later(400 * DAY).now)).toThrowError(
      expect.objectContaining({ message: 'Your account is suspended until a moderator lifts it: Spam', details: { reason: 'Spam', until: null } }),
    );
  });
});
