import { AccountDisabledError, AppError } from '@forum/platform';
import type { FastifyError } from 'fastify';
import { AccountClosed, DomainError } from '../domain/errors.ts';

/** A domain error as the platform's HTTP error (its code's status, its code, message and details); an account closed in the read side's words. */
export function httpErrorOf(error: DomainError): AppError {
  if (error instanceof AccountClosed) return new AccountDisabledError(error.why);
  return new AppError(error.code, error.message, error.details);
}

/**
 * The command API's error handler: a domain error goes on as its HTTP error, anything else as it
 * is, to the server's own handler (which writes every error body).
 */
export function answerDomainErrors(error: FastifyError | DomainError): never {
  throw error instanceof DomainError ? httpErrorOf(error) : error;
}
