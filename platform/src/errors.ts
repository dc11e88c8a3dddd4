import { ErrorCode, fieldErrorsOf, type AccountDenial, type FieldErrors } from '@forum/contracts';
import type { z } from 'zod';

/**
 * An error with a stable code and an HTTP status. Domain code throws these;
 * one error handler turns them into the error body, so routes never build error
 * responses themselves.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(
    readonly fieldErrors: FieldErrors,
    message = 'The request is not valid',
  ) {
    super(400, ErrorCode.VALIDATION_FAILED, message, fieldErrors);
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'A valid bearer token is required') {
    super(401, ErrorCode.UNAUTHENTICATED, message);
  }
}

/** A still-valid token of an account that is disabled or erased: refused at once, on reads and writes. */
export class AccountDisabledError extends AppError {
  constructor(why: AccountDenial) {
    super(401, ErrorCode.ACCOUNT_DISABLED, why === 'erased' ? 'This account has been deleted.' : 'Your account is disabled. Contact an administrator.');
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this') {
    super(403, ErrorCode.FORBIDDEN, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, ErrorCode.NOT_FOUND, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code: string = ErrorCode.CONFLICT, details?: unknown) {
    super(409, code, message, details);
  }
}

/** A spec rule says no (422): the request is well-formed but not allowed now. */
export class BusinessRuleError extends AppError {
  constructor(code: string, message: string, details?: unknown) {
    super(422, code, message, details);
  }
}

/** Over a limit (429): `retryAfterSeconds` is when to try again, sent as Retry-After and in the details. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, ErrorCode.RATE_LIMITED, message, { retryAfterSeconds });
  }
}

/** A body the service does not read: not JSON, or not in UTF-8 (415). */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Send the body as JSON in UTF-8 (Content-Type: application/json)') {
    super(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, message);
  }
}

export class UnavailableError extends AppError {
  constructor(message: string) {
    super(503, ErrorCode.UNAVAILABLE, message);
  }
}

/** Parses input at the edge; a failure is a 400 VALIDATION_FAILED with one message per field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(fieldErrorsOf(result.error));
  return result.data;
}
