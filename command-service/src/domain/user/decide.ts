import { ErrorCode, FREE_POST_LIMIT, MEMBERSHIP_PRICE, type AccountErased, type UserEvent } from '@forum/contracts';
import { isVerifiedAdminEmail, registeredAs } from '@forum/platform';
import { Conflict, NotFound, RuleBroken } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import { isDisabled, type UserState } from './user.ts';

/**
 * Rules (issue "identity", item 5):
 * - the forum's record of a user starts with their first authenticated request, from the token's claims;
 * - an email listed in ADMIN_EMAILS makes an admin only once the token vouches that it is verified (email_verified):
 *   at registration, or at the first command (or registration check) after it is verified; roles are never taken
 *   from the token, and whoever registers a listed address first without proving it stays a member;
 * - a user changes their own display name and photo; there is no demotion of an admin;
 * - a non-member owns at most FREE_POST_LIMIT live posts (a deleted post frees its slot); members have no limit;
 * - membership is bought once: a member asking again gets ALREADY_MEMBER; while a purchase is under way a
 *   second one is refused, unless the first went stale (a crash between charge and record), which is resumed
 *   with the same attempt id so the provider does not charge twice;
 * - an account is erased once (again: nothing); the erasure ends the stream (docs/security/erasure.md);
 * - the identity realm's disabling and enabling of an account are recorded as they come, also for an
 *   account the forum has not seen yet; an erased account stays erased.
 */
export type RegisterUser = {
  type: 'RegisterUser';
  data: { userId: string; email: string; emailVerified?: boolean; name: string; photoURL: string; adminEmails: ReadonlySet<string> };
};
/** A known user whose token now vouches for their email: admin when it is listed in ADMIN_EMAILS. */
export type GrantAdminByEmail = { type: 'GrantAdminByEmail'; data: { email: string; emailVerified: boolean; adminEmails: ReadonlySet<string> } };
export type UpdateProfile = { type: 'UpdateProfile'; data: { displayName?: string; photoURL?: string } };
export type GrantAdmin = { type: 'GrantAdmin'; data: { reason: 'operator' | 'admin' | 'demo-data' } };
export type AuthorPost = { type: 'AuthorPost'; data: { postId: string } };
export type RemoveAuthoredPost = { type: 'RemoveAuthoredPost'; data: { postId: string } };
export type StartMembershipPurchase = { type: 'StartMembershipPurchase'; data: { attemptId: string; staleAfterMs: number } };
export type CompleteMembershipPurchase = { type: 'CompleteMembershipPurchase'; data: { attemptId: string; paymentReference: string } };
export type FailMembershipPurchase = { type: 'FailMembershipPurchase'; data: { attemptId: string; reason: string } };
/** `userId`: the stream's user (a stream with no registration has no record of it). */
export type EraseAccount = { type: 'EraseAccount'; data: { userId: string; content: AccountErased['data']['content'] } };
export type SetAccountAccess = { type: 'SetAccountAccess'; data: { userId: string; enabled: boolean } };
export type UserCommand =
  | EraseAccount
  | SetAccountAccess
  | RegisterUser
  | GrantAdminByEmail
  | UpdateProfile
  | GrantAdmin
  | AuthorPost
  | RemoveAuthoredPost
  | StartMembershipPurchase
  | CompleteMembershipPurchase
  | FailMembershipPurchase;

export class AlreadyMemberError extends Conflict {
  constructor() {
    super('You are already a member', ErrorCode.ALREADY_MEMBER);
  }
}

export class PurchaseInProgressError extends Conflict {
  constructor() {
    super('A membership purchase is already under way', ErrorCode.PURCHASE_IN_PROGRESS);
  }
}

export class PostLimitReachedError extends RuleBroken {
  constructor(count: number) {
    super(ErrorCode.POST_LIMIT_REACHED, `Free members can have at most ${FREE_POST_LIMIT} posts. Become a member for unlimited posts.`, {
      count,
      limit: FREE_POST_LIMIT,
    });
  }
}

export class AlreadyRegisteredError extends Conflict {
  constructor() {
    super('This user is already registered', ErrorCode.ALREADY_REGISTERED);
  }
}

export function decide(command: UserCommand, state: UserState, meta: CommandMeta): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      return register(command, state, meta);
    case 'GrantAdminByEmail':
      return grantAdminByEmail(command, state, meta);
    case 'UpdateProfile':
      return updateProfile(command, state, meta);
    case 'GrantAdmin':
      return grantAdmin(command, state, meta);
    case 'AuthorPost':
      return authorPost(command, state, meta);
    case 'RemoveAuthoredPost':
      return removeAuthoredPost(command, state, meta);
    case 'StartMembershipPurchase':
      return startPurchase(command, state, meta);
    case 'CompleteMembershipPurchase':
      return completePurchase(command, state, meta);
    case 'FailMembershipPurchase':
      return failPurchase(command, state, meta);
    case 'EraseAccount':
      return erase(command, state, meta);
    case 'SetAccountAccess':
      return setAccess(command, state, meta);
    default:
      return unreachable(command);
  }
}

function register(command: RegisterUser, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'unknown') throw new AlreadyRegisteredError();
  const { userId, emailVerified = false, adminEmails } = command.data;
  const at = meta.now.toISOString();
  // the one rule of what a registration records, which the read side answers before it is recorded
  const member = registeredAs({ ...command.data, emailVerified }, adminEmails);
  const registered: UserEvent = {
    type: 'UserRegistered',
    data: { userId, email: member.email, name: member.name, photoURL: member.photoURL, registeredAt: at },
  };
  return [registered, ...(member.role === 'admin' ? [adminByEmail(userId, at)] : [])];
}

function grantAdminByEmail(command: GrantAdminByEmail, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered') throw new NotFound('No such user');
  const { email, emailVerified, adminEmails } = command.data;
  if (state.role === 'admin' || !isVerifiedAdminEmail(email, emailVerified, adminEmails)) return [];
  return [adminByEmail(state.userId, meta.now.toISOString())];
}

const adminByEmail = (userId: string, at: string): UserEvent => ({ type: 'AdminRoleGranted', data: { userId, reason: 'admin-emails', grantedAt: at } });

function updateProfile(command: UpdateProfile, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered') throw new NotFound('No such user');
  // only the fields that change, so concurrent updates of the other field are not overwritten with stale values
  const { displayName, photoURL } = command.data;
  const changes = {
    ...(displayName !== undefined && displayName !== state.name && { name: displayName }),
    ...(photoURL !== undefined && photoURL !== state.photoURL && { photoURL }),
  };
  if (changes.name === undefined && changes.photoURL === undefined) return [];
  return [{ type: 'ProfileUpdated', data: { userId: state.userId, changes, updatedAt: meta.now.toISOString() } }];
}

function grantAdmin(command: GrantAdmin, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered') throw new NotFound('No such user');
  if (state.role === 'admin') return []; // making an admin admin again changes nothing
  return [{ type: 'AdminRoleGranted', data: { userId: state.userId, reason: command.data.reason, grantedAt: meta.now.toISOString() } }];
}

/**
 * A member's posts are not counted here: membership is for good, so the limit
 * never applies again, and a stream that grew with every post would make each
 * command of a prolific member slower (every command loads the actor's stream).
 */
function authorPost(command: AuthorPost, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered') throw new NotFound('No such user');
  if (state.isMember) return [];
  if (state.livePosts.size >= FREE_POST_LIMIT) throw new PostLimitReachedError(state.livePosts.size);
  return [{ type: 'PostAuthored', data: { userId: state.userId, postId: command.data.postId, at: meta.now.toISOString() } }];
}

function removeAuthoredPost(command: RemoveAuthoredPost, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered' || !state.livePosts.has(command.data.postId)) return [];
  return [{ type: 'AuthoredPostRemoved', data: { userId: state.userId, postId: command.data.postId, at: meta.now.toISOString() } }];
}

/** [] means: resume the pending attempt (its id is in the state). */
function startPurchase(command: StartMembershipPurchase, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered') throw new NotFound('No such user');
  if (state.isMember) throw new AlreadyMemberError();
  if (state.pendingPurchase) {
    const age = meta.now.getTime() - Date.parse(state.pendingPurchase.startedAt);
    if (age < command.data.staleAfterMs) throw new PurchaseInProgressError();
    return [];
  }
  const { amountCents, currency } = MEMBERSHIP_PRICE;
  return [
    {
      type: 'MembershipPurchaseStarted',
      data: { userId: state.userId, attemptId: command.data.attemptId, amountCents, currency, startedAt: meta.now.toISOString() },
    },
  ];
}

function completePurchase(command: CompleteMembershipPurchase, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered' || state.pendingPurchase?.attemptId !== command.data.attemptId) return [];
  const { amountCents, currency } = MEMBERSHIP_PRICE;
  return [
    {
      type: 'MembershipPurchased',
      data: {
        userId: state.userId,
        attemptId: command.data.attemptId,
        paymentReference: command.data.paymentReference,
        amountCents,
        currency,
        purchasedAt: meta.now.toISOString(),
      },
    },
  ];
}

function failPurchase(command: FailMembershipPurchase, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status !== 'registered' || state.pendingPurchase?.attemptId !== command.data.attemptId) return [];
  return [
    {
      type: 'MembershipPurchaseFailed',
      data: { userId: state.userId, attemptId: command.data.attemptId, reason: command.data.reason, failedAt: meta.now.toISOString() },
    },
  ];
}

/** Erasing an unknown subject still records it: the identity realm's account is removed from that record. */
function erase(command: EraseAccount, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status === 'erased') return [];
  const { userId, content } = command.data;
  return [{ type: 'AccountErased', data: { userId, content, erasedAt: meta.now.toISOString() } }];
}

function setAccess(command: SetAccountAccess, state: UserState, meta: CommandMeta): UserEvent[] {
  if (state.status === 'erased') return [];
  const { userId, enabled } = command.data;
  if (isDisabled(state) === !enabled) return [];
  const at = meta.now.toISOString();
  return [enabled ? { type: 'AccountEnabled', data: { userId, enabledAt: at } } : { type: 'AccountDisabled', data: { userId, disabledAt: at } }];
}
