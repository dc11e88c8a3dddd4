import { AccountDisabledError, AppError } from '@forum/platform';
import type { FastifyError } from 'fastify';
import { AccountClosed, DomainError, type DomainErrorKind } from '../domain/errors.ts';

/** The one place a domain error's kind becomes an HTTP status. */
const STATUS: Readonly<Record<DomainErrorKind, number>> = {
  invalid: 400,
  'account-closed': 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  rule: 422,
  unavailable: 503,
};

/** A domain error as the platform's HTTP error (its status, code, message and details); an account closed in the read side's words. */
export function httpErrorOf(error: DomainError): AppError {
  if (error instanceof AccountClosed) return new AccountDisabledError(error.why);
  return new AppError(STATUS[error.kind], error.code, error.message, error.details);
}

/**
 * The command API's error handler: a domain error goes on as its HTTP error, anything else as it
 * is, to the server's own handler (which writes every error body).
 */
export function answerDomainErrors(error: FastifyError | DomainError): never {
  throw error instanceof DomainError ? httpErrorOf(error) : error;
}
