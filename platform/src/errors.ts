import { ERROR_STATUS, ErrorCode, fieldErrorsOf, type AccountDenial, type ErrorCodeName, type FieldErrors } from '@forum/contracts';
import type { z } from 'zod';

/**
 * An error with a stable code and its HTTP status, the code's in contracts' ERROR_STATUS (each
 * status is written there once). Domain code throws these; one error handler turns them into the
 * error body, so routes never build error responses themselves.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCodeName,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
    this.status = ERROR_STATUS[code];
  }
}

export class ValidationError extends AppError {
  constructor(
    readonly fieldErrors: FieldErrors,
    message = 'The request is not valid',
  ) {
    super(ErrorCode.VALIDATION_FAILED, message, fieldErrors);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'A valid bearer token is required') {
    super(ErrorCode.UNAUTHENTICATED, message);
  }
}

/** A still-valid token of an account that is disabled or erased: refused at once, on reads and writes. */
export class AccountDisabledError extends AppError {
  constructor(why: AccountDenial) {
    super(ErrorCode.ACCOUNT_DISABLED, why === 'erased' ? 'This account has been deleted.' : 'Your account is disabled. Contact an administrator.');
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this') {
    super(ErrorCode.FORBIDDEN, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(ErrorCode.NOT_FOUND, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code: ErrorCodeName = ErrorCode.CONFLICT, details?: unknown) {
    super(code, message, details);
  }
}

/** A spec rule says no (422): the request is well-formed but not allowed now. */
export class BusinessRuleError extends AppError {
  constructor(code: ErrorCodeName, message: string, details?: unknown) {
    super(code, message, details);
  }
}

/** Over a limit (429): `retryAfterSeconds` is when to try again, sent as Retry-After and in the details. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(ErrorCode.RATE_LIMITED, message, { retryAfterSeconds });
  }
}

/** A body the service does not read: not JSON, or not in UTF-8 (415). */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Send the body as JSON in UTF-8 (Content-Type: application/json)') {
    super(ErrorCode.UNSUPPORTED_MEDIA_TYPE, message);
  }
}

export class UnavailableError extends AppError {
  constructor(message: string) {
    super(ErrorCode.UNAVAILABLE, message);
  }
}

/** Parses input at the edge; a failure is a 400 VALIDATION_FAILED with one message per field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrorsOf(result.error));
  return result.data;
}
