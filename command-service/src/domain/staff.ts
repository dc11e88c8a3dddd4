import { ErrorCode, isStaffRole, type Role } from '@forum/contracts';
import { DomainError } from './errors.ts';

/** Who acts, as a decision on others' content or accounts needs them: their id and role. */
export interface Acting {
  readonly id: string;
  readonly role: Role;
}

/** A moderation action the actor's role does not allow on this member or their content (403). */
export class StaffProtected extends DomainError {
  readonly kind = 'forbidden';
  constructor(message: string) {
    super(ErrorCode.STAFF_PROTECTED, message);
  }
}

/** A moderator does not act on another moderator's or an admin's account or content (an admin does). */
export function refuseStaffTarget(actor: Acting, target: Acting): void {
  if (actor.role === 'moderator' && target.id !== actor.id && isStaffRole(target.role))
    throw new StaffProtected("A moderator cannot act on a moderator's or an admin's account or content: ask an admin.");
}
