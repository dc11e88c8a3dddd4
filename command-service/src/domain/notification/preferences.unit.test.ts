import { FIXED_NOW as at } from '@forum/platform/testing';
import { describe, expect, it } from 'vitest';
import { stateAfter, testCommandMeta } from '../testing.ts';
import type { UserState } from '../user/user.ts';
import { evolve, initialNotificationsState } from './notification.ts';
import { decidePreferences, deliveriesOf, UnsubscribeLinkInvalid, type ChangeNotificationPreferences } from './preferences.ts';

const meta = testCommandMeta({ actorId: 'u-ann', requestId: 'r' });
const ann: UserState = {
  status: 'registered',
  disabled: false,
  userId: 'u-ann',
  email: 'ann@forum.local',
  name: 'Ann',
  photoURL: '',
  handle: 'ann',
  role: 'user',
  isMember: false,
  livePosts: new Set(),
  pendingPurchase: null,
  suspension: null,
};
const given = stateAfter(evolve, initialNotificationsState);
const change = (
  changes: ChangeNotificationPreferences['data']['changes'],
  more: Partial<ChangeNotificationPreferences['data']> = {},
): ChangeNotificationPreferences => ({
  type: 'ChangeNotificationPreferences',
  data: { userId: 'u-ann', changes, via: 'settings', member: ann, ...more },
});

describe('given a member who never chose', () => {
  it('when they choose the defaults, then nothing; when they choose otherwise, then only the kinds that change', () => {
    expect(decidePreferences(change({ reply: 'email', 'followed-tag': 'digest' }), initialNotificationsState, meta)).toEqual([]);
    expect(decidePreferences(change({ reply: 'email', mention: 'off' }), initialNotificationsState, meta)).toEqual([
      { type: 'NotificationPreferencesChanged', data: { userId: 'u-ann', changes: { mention: 'off' }, via: 'settings', changedAt: at } },
    ]);
  });

  it('when an unsubscribe link names a member the forum erased or does not know, then UnsubscribeLinkInvalid', () => {
    for (const member of [{ status: 'erased' }, { status: 'unknown' }] as const) {
      expect(() => decidePreferences(change({ reply: 'app' }, { via: 'unsubscribe', member }), initialNotificationsState, meta)).toThrow(
        UnsubscribeLinkInvalid,
      );
    }
  });
});

describe('given a member who chose', () => {
  const chosen = given([{ type: 'NotificationPreferencesChanged', data: { userId: 'u-ann', changes: { reply: 'digest' }, via: 'settings', changedAt: at } }]);

  it('then their deliveries are their choices beside the defaults, and choosing the same again appends nothing', () => {
    expect(deliveriesOf(chosen)).toMatchObject({ reply: 'digest', mention: 'email' });
    expect(decidePreferences(change({ reply: 'digest' }), chosen, meta)).toEqual([]);
  });

  it("when an unsubscribe link names the kind, then it is 'app', by the link", () => {
    expect(decidePreferences(change({ reply: 'app' }, { via: 'unsubscribe' }), chosen, meta)).toEqual([
      { type: 'NotificationPreferencesChanged', data: { userId: 'u-ann', changes: { reply: 'app' }, via: 'unsubscribe', changedAt: at } },
    ]);
  });
});
