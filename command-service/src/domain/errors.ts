import { ErrorCode, type AccountDenial, type ErrorCodeName, type FieldErrors } from '@forum/contracts';

/**
 * What kind of refusal a domain error is (what its deciders' tests assert). The domain knows no
 * HTTP: the command API's edge answers its code's status, contracts' ERROR_STATUS
 * (http/domain-errors.ts); a tool that calls the commands reads `code`.
 */
export type DomainErrorKind =
  /** the input breaks a rule of its own fields (`details`: one message per field) */
  | 'invalid'
  /** the actor's account is disabled or erased */
  | 'account-closed'
  | 'forbidden'
  | 'not-found'
  /** the stream is not in a state that allows it (exists already, reported already, a vote change from the wrong vote…) */
  | 'conflict'
  /** a rule of the product says no now (the free post limit, one's own post…) */
  | 'rule'
  /** something the command needs is not configured */
  | 'unavailable';

/** A command refused: a kind, a stable code (contracts' ErrorCode), the product's message and details for the client. */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  constructor(
    readonly code: ErrorCodeName,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInput extends DomainError {
  readonly kind = 'invalid';
  constructor(fieldErrors: FieldErrors, message = 'The request is not valid') {
    super(ErrorCode.VALIDATION_FAILED, message, fieldErrors);
  }
}

/** A disabled or erased account's token, refused before anything is decided (the edge words it as the read side does). */
export class AccountClosed extends DomainError {
  readonly kind = 'account-closed';
  constructor(readonly why: AccountDenial) {
    super(ErrorCode.ACCOUNT_DISABLED, `This account is ${why}`);
  }
}

export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
  constructor(message = 'You are not allowed to do this') {
    super(ErrorCode.FORBIDDEN, message);
  }
}

export class NotFound extends DomainError {
  readonly kind = 'not-found';
  constructor(message = 'Not found') {
    super(ErrorCode.NOT_FOUND, message);
  }
}

export class Conflict extends DomainError {
  readonly kind = 'conflict';
  constructor(message: string, code: ErrorCodeName = ErrorCode.CONFLICT, details?: unknown) {
    super(code, message, details);
  }
}

/** A rule of the product says no: the request is well-formed but not allowed now. */
export class RuleBroken extends DomainError {
  readonly kind = 'rule';
  constructor(code: ErrorCodeName, message: string, details?: unknown) {
    super(code, message, details);
  }
}

export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
  constructor(message: string) {
    super(ErrorCode.UNAVAILABLE, message);
  }
}
