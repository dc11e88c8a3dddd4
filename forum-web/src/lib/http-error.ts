import { ErrorBody, ErrorCode, FieldErrors, SuspensionDetails } from '@forum/contracts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { suspensionText } from './suspension';

/** True when an RTK Query error is the server's 404. */
export function isNotFound(error: FetchBaseQueryError | SerializedError | undefined): boolean {
  return error !== undefined && 'status' in error && error.status === 404;
}

/** True when an RTK Query error is the server's 410: what was there was deleted. */
export function isGone(error: FetchBaseQueryError | SerializedError | undefined): boolean {
  return error !== undefined && 'status' in error && error.status === 410;
}

/** What the server said of a failure: its status, code, message, field messages and its other details. */
export type ServerError = { status: number | null; code: string; message: string; fields: FieldErrors; details: unknown };

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
    details: body.data.error.details,
  };
}

/**
 * What to tell the member when the server refused a write for who they are now, not for what they
 * wrote: a write limit (429) says what happened and when to try again ('Too many comments. Try again
 * in 2 minutes.'); a suspension (403 MEMBER_SUSPENDED) says what the banner says, in the reader's
 * locale; a locked post (409 POST_LOCKED) says so. Null for any other failure, which keeps its own text.
 */
export function refusalMessage(error: FetchBaseQueryError | SerializedError | undefined): string | null {
  return refusalMessageOf(serverError(error));
}

/** refusalMessage of a server error already read (serverError). */
export function refusalMessageOf(server: ServerError | null): string | null {
  if (server?.status === 429 || server?.code === ErrorCode.POST_LOCKED) return server.message;
  if (server?.code === ErrorCode.MEMBER_SUSPENDED) {
    const suspension = SuspensionDetails.safeParse(server.details);
    return suspension.success ? suspensionText(suspension.data) : server.message;
  }
  return null;
}
