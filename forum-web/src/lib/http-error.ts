import { ErrorBody, FieldErrors } from '@forum/contracts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

/** True when an RTK Query error is the server's 404. */
export function isNotFound(error: FetchBaseQueryError | SerializedError | undefined): boolean {
  return error !== undefined && 'status' in error && error.status === 404;
}

/** What the server said of a failure: its status, code, message and field messages. */
export type ServerError = { status: number | null; code: string; message: string; fields: FieldErrors };

/** The server's error (code, message, field messages) in an RTK Query error, when it sent one. */
export function serverError(error: FetchBaseQueryError | SerializedError | undefined): ServerError | null {
  if (!error || !('status' in error)) return null;
  const body = ErrorBody.safeParse(error.data);
  if (!body.success) return null;
  const fields = FieldErrors.safeParse(body.data.error.details);
  return {
    status: typeof error.status === 'number' ? error.status : null,
    code: body.data.error.code,
    message: body.data.error.message,
    fields: fields.success ? fields.data : {},
  };
}

/**
 * The server's message when it refused for a write limit (429): it says what happened and when to
 * try again ('Too many comments. Try again in 2 minutes.'). Null for any other failure, which keeps its own text.
 */
export function rateLimitMessage(error: FetchBaseQueryError | SerializedError | undefined): string | null {
  return limitMessageOf(serverError(error));
}

/** rateLimitMessage of a server error already read (serverError). */
export const limitMessageOf = (server: ServerError | null): string | null => (server?.status === 429 ? server.message : null);
