import {
  ErrorCode,
  SUSPENSION_MAX_DAYS,
  SUSPENSION_PERIOD_SECONDS,
  type ModeratedItem,
  type ModeratorRoleEvent,
  type SuspensionEvent,
  type SuspensionPeriod,
} from '@forum/contracts';
import { refuseStaffTarget, StaffProtected, type Acting } from '../staff.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import { Conflict, InvalidInput, NotFound } from '../errors.ts';
import type { CommentState } from '../comment/comment.ts';
import type { PostState } from '../post/post.ts';
import { suspensionAt, type UserState } from '../user/user.ts';

/**
 * Rules enforced here on a member's stream (issue #43, docs/moderation.md):
 * - an admin makes a member a moderator and takes it back (the wiring checks the admin); an
 *   admin is one already (409 ALREADY_ADMIN: an admin holds every moderator's power, and is never
 *   taken back to member); a moderator made one again, or a member "revoked", appends nothing;
 * - staff suspend a member for a day or a week from the clock, until a date (in the future, at most
 *   SUSPENSION_MAX_DAYS away: 400 on `until`), or until lifted; nobody suspends an admin or themselves,
 *   and a moderator no other moderator (403 STAFF_PROTECTED); a new suspension replaces the one in force;
 * - staff lift a suspension in force (by the same protection); none in force (never given, lifted,
 *   or ended by the clock): nothing appended;
 * - a suspension from the queue names the post or comment it is about, one the member wrote (404
 *   otherwise; deleted ones count: staff often delete it first);
 * - the member is one the forum knows (404 otherwise, an erased one included).
 */
export type GrantModerator = { type: 'GrantModerator'; data: { actorId: string } };
export type RevokeModerator = { type: 'RevokeModerator'; data: { actorId: string } };
/** The reported post or comment a suspension comes from (the queue's), with its stream's state. */
export type AboutItem = { kind: 'post'; id: string; post: PostState } | { kind: 'comment'; id: string; comment: CommentState };
export type SuspendMember = {
  type: 'SuspendMember';
  data: { actor: Acting; reason: string; period: SuspensionPeriod; until?: string; about?: AboutItem };
};
export type LiftSuspension = { type: 'LiftSuspension'; data: { actor: Acting } };
export type MemberModerationCommand = GrantModerator | RevokeModerator | SuspendMember | LiftSuspension;

export class AlreadyAdminError extends Conflict {
  constructor() {
    super('This member is an admin: an admin can already do everything a moderator can.', ErrorCode.ALREADY_ADMIN);
  }
}

export function decide(command: MemberModerationCommand, state: UserState, meta: CommandMeta): (ModeratorRoleEvent | SuspensionEvent)[] {
  if (state.status !== 'registered') throw new NotFound('No such member');
  const at = meta.now.toISOString();
  const { userId, role } = state;
  switch (command.type) {
    case 'GrantModerator':
      if (role === 'admin') throw new AlreadyAdminError();
      return role === 'moderator' ? [] : [{ type: 'ModeratorRoleGranted', data: { userId, grantedBy: command.data.actorId, grantedAt: at } }];
    case 'RevokeModerator':
      if (role === 'admin') throw new AlreadyAdminError();
      return role === 'user' ? [] : [{ type: 'ModeratorRoleRevoked', data: { userId, revokedBy: command.data.actorId, revokedAt: at } }];
    case 'SuspendMember': {
      const { actor, reason } = command.data;
      if (userId === actor.id) throw new StaffProtected('You cannot suspend yourself.');
      if (role === 'admin') throw new StaffProtected('An admin cannot be suspended.');
      refuseStaffTarget(actor, { id: userId, role });
      const about = command.data.about && itemBy(command.data.about, userId);
      const until = suspensionEnd(command.data.period, command.data.until, meta.now);
      return [{ type: 'MemberSuspended', data: { userId, reason, until, suspendedBy: actor.id, suspendedAt: at, ...(about && { about }) } }];
    }
    case 'LiftSuspension': {
      const { actor } = command.data;
      refuseStaffTarget(actor, { id: userId, role });
      return suspensionAt(state, meta.now) === null ? [] : [{ type: 'SuspensionLifted', data: { userId, liftedBy: actor.id, liftedAt: at } }];
    }
    default:
      return unreachable(command);
  }
}

/** When a suspension for `period` given at `now` ends (null: until lifted); a chosen date must be ahead, within SUSPENSION_MAX_DAYS. */
export function suspensionEnd(period: SuspensionPeriod, until: string | undefined, now: Date): string | null {
  switch (period) {
    case 'day':
    case 'week':
      return new Date(now.getTime() + SUSPENSION_PERIOD_SECONDS[period] * 1000).toISOString();
    case 'indefinite':
      return null;
    case 'date': {
      const end = until === undefined ? NaN : Date.parse(until);
      if (Number.isNaN(end)) throw new InvalidInput({ until: ['Send until with the period date'] });
      if (end <= now.getTime()) throw new InvalidInput({ until: ['The suspension must end in the future'] });
      if (end > now.getTime() + SUSPENSION_MAX_DAYS * 24 * 60 * 60 * 1000)
        throw new InvalidInput({ until: [`A suspension ends at most ${SUSPENSION_MAX_DAYS} days from now: longer, suspend until lifted`] });
      return new Date(end).toISOString();
    }
    default:
      return unreachable(period);
  }
}

/** The item a suspension is about, when `userId` wrote it (else 404). */
function itemBy(about: AboutItem, userId: string): ModeratedItem {
  const state = about.kind === 'post' ? about.post : about.comment;
  if (state.status === 'none' || state.authorId !== userId) throw new NotFound(`No such ${about.kind} by this member`);
  return { kind: about.kind, id: about.id, postId: about.kind === 'post' ? about.id : about.comment.status === 'none' ? about.id : about.comment.postId };
}
