import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';
import type { HandleChanged } from './handle.ts';

/** Whether an erased member's posts and comments stayed (shown by 'Deleted user') or went with them. */
export const ERASED_CONTENT = ['kept', 'erased'] as const;

/** A user's stream is named by the identity provider's subject (`sub`). */
export const userStream = (userId: string) => `user-${userId}`;

/** First authenticated request of a subject: the forum's own record of the user begins. */
export const UserRegistered = defineEvent(
  'UserRegistered',
  1,
  z.object({
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    photoURL: z.string(),
    registeredAt: isoDate,
  }),
);
export type UserRegistered = { type: 'UserRegistered'; data: z.infer<typeof UserRegistered.schema> };

/**
 * 'Change Photo' and display-name updates (spec §2 My Profile, §3 current user).
 * v2 carries only what the request changed, so two devices changing the name
 * and the photo at once do not overwrite each other with stale values.
 */
export const ProfileUpdated = defineEvent(
  'ProfileUpdated',
  2,
  z.object({
    userId: z.string(),
    changes: z
      .object({ name: z.string().optional(), photoURL: z.string().optional() })
      .refine((changes) => changes.name !== undefined || changes.photoURL !== undefined, 'a profile update changes at least one field'),
    updatedAt: isoDate,
  }),
);
export type ProfileUpdated = { type: 'ProfileUpdated'; data: z.infer<typeof ProfileUpdated.schema> };

/** Stored before v2: a full replacement of both fields. Read through the upcaster (upcast.ts), never written. */
export const ProfileUpdatedV1 = defineEvent('ProfileUpdated', 1, z.object({ userId: z.string(), name: z.string(), photoURL: z.string(), updatedAt: isoDate }));
export type ProfileUpdatedV1 = { type: 'ProfileUpdated'; data: z.infer<typeof ProfileUpdatedV1.schema> };

/** The user became an admin (ADMIN_EMAILS at registration, the operator, or another admin). No demotion exists. */
export const AdminRoleGranted = defineEvent(
  'AdminRoleGranted',
  1,
  z.object({ userId: z.string(), reason: z.enum(['admin-emails', 'operator', 'admin', 'demo-data']), grantedAt: isoDate }),
);
export type AdminRoleGranted = { type: 'AdminRoleGranted'; data: z.infer<typeof AdminRoleGranted.schema> };

/**
 * The user's side of a post's life. The free post limit is a rule about the
 * user, so the user's stream counts their live posts: creating or deleting a
 * post appends here too, in the same transaction, and concurrent creates of
 * one user conflict on this stream's version.
 */
export const PostAuthored = defineEvent('PostAuthored', 1, z.object({ userId: z.string(), postId: z.string().uuid(), at: isoDate }));
export type PostAuthored = { type: 'PostAuthored'; data: z.infer<typeof PostAuthored.schema> };

export const AuthoredPostRemoved = defineEvent('AuthoredPostRemoved', 1, z.object({ userId: z.string(), postId: z.string().uuid(), at: isoDate }));
export type AuthoredPostRemoved = { type: 'AuthoredPostRemoved'; data: z.infer<typeof AuthoredPostRemoved.schema> };

/**
 * Gold membership (one-time $9.99). The purchase is recorded before the charge
 * so that two requests at once cannot both charge: the second meets the first's
 * attempt in the stream. The attempt id is the payment provider's idempotency
 * key, so a retry after a crash completes the same charge instead of a new one.
 */
export const MembershipPurchaseStarted = defineEvent(
  'MembershipPurchaseStarted',
  1,
  z.object({ userId: z.string(), attemptId: z.string().uuid(), amountCents: z.number().int(), currency: z.string(), startedAt: isoDate }),
);
export type MembershipPurchaseStarted = { type: 'MembershipPurchaseStarted'; data: z.infer<typeof MembershipPurchaseStarted.schema> };

export const MembershipPurchased = defineEvent(
  'MembershipPurchased',
  1,
  z.object({
    userId: z.string(),
    attemptId: z.string().uuid(),
    paymentReference: z.string(),
    amountCents: z.number().int(),
    currency: z.string(),
    purchasedAt: isoDate,
  }),
);
export type MembershipPurchased = { type: 'MembershipPurchased'; data: z.infer<typeof MembershipPurchased.schema> };

export const MembershipPurchaseFailed = defineEvent(
  'MembershipPurchaseFailed',
  1,
  z.object({ userId: z.string(), attemptId: z.string().uuid(), reason: z.string(), failedAt: isoDate }),
);
export type MembershipPurchaseFailed = { type: 'MembershipPurchaseFailed'; data: z.infer<typeof MembershipPurchaseFailed.schema> };

/**
 * The member's account is erased (by themselves or an admin, the metadata's actor): their keys
 * are destroyed in the same transaction, so every copy of their personal data in the log reads
 * as erased from now on (docs/security/erasure.md). Carries no personal data. The stream ends
 * here: nothing is decided on it again.
 */
export const AccountErased = defineEvent('AccountErased', 1, z.object({ userId: z.string(), content: z.enum(ERASED_CONTENT), erasedAt: isoDate }));
export type AccountErased = { type: 'AccountErased'; data: z.infer<typeof AccountErased.schema> };

/**
 * The identity realm disabled the account (an admin, the metadata's actor): the forum refuses its
 * tokens at once, on reads and writes, until `AccountEnabled`. May open a stream the forum has not
 * seen yet (an account disabled before its first request).
 */
export const AccountDisabled = defineEvent('AccountDisabled', 1, z.object({ userId: z.string(), disabledAt: isoDate }));
export type AccountDisabled = { type: 'AccountDisabled'; data: z.infer<typeof AccountDisabled.schema> };

export const AccountEnabled = defineEvent('AccountEnabled', 1, z.object({ userId: z.string(), enabledAt: isoDate }));
export type AccountEnabled = { type: 'AccountEnabled'; data: z.infer<typeof AccountEnabled.schema> };

export type UserEvent =
  | HandleChanged
  | AccountErased
  | AccountDisabled
  | AccountEnabled
  | UserRegistered
  | ProfileUpdated
  | AdminRoleGranted
  | PostAuthored
  | AuthoredPostRemoved
  | MembershipPurchaseStarted
  | MembershipPurchased
  | MembershipPurchaseFailed;
