import { z } from 'zod';

/** Stable error codes of the HTTP contract. Clients switch on these, never on messages. */
export const ErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  /** What was there and was deleted: a post's address after its deletion (410), where one that never was is NOT_FOUND. */
  GONE: 'GONE',
  CONFLICT: 'CONFLICT',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** The key's request was carried out but its answer was lost (a writer died in between; KurrentDB's log): read instead of resending (409). */
  IDEMPOTENCY_KEY_IN_DOUBT: 'IDEMPOTENCY_KEY_IN_DOUBT',
  RATE_LIMITED: 'RATE_LIMITED',
  /** The body is larger than the service reads (413). */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** The request's headers are larger than the server reads (431). */
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL',
  POST_LIMIT_REACHED: 'POST_LIMIT_REACHED',
  ALREADY_MEMBER: 'ALREADY_MEMBER',
  PURCHASE_IN_PROGRESS: 'PURCHASE_IN_PROGRESS',
  PAYMENT_FAILED: 'PAYMENT_FAILED',
  ILLEGAL_VOTE_TRANSITION: 'ILLEGAL_VOTE_TRANSITION',
  ALREADY_REPORTED: 'ALREADY_REPORTED',
  TAG_EXISTS: 'TAG_EXISTS',
  /** A read ran out of time (statement timeout): try again. */
  READ_TIMEOUT: 'READ_TIMEOUT',
  /** Too many reads of one kind at once (e.g. searches): try again shortly (Retry-After). */
  BUSY: 'BUSY',
  /** A body in a media type or charset the call does not read (415): send JSON in UTF-8. */
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** The account behind a still-valid token is disabled or erased (401): see ACCOUNT_DENIALS. */
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  /** An admin's erasure of their own account: that goes through their own dashboard. */
  CANNOT_ERASE_SELF: 'CANNOT_ERASE_SELF',
  /** A registration of an account the forum has registered already (409): the registration call answers the record instead, so this is a command's, not a route's. */
  ALREADY_REGISTERED: 'ALREADY_REGISTERED',

  // ── moderation: one's own content, warnings (issue #28, docs/moderation.md) ──
  /** A vote (like or dislike) on the voter's own post (422). */
  OWN_POST_VOTE: 'OWN_POST_VOTE',
  /** A report of the reporter's own comment (422). */
  OWN_COMMENT_REPORT: 'OWN_COMMENT_REPORT',
  /** A second warning about one comment (409). */
  ALREADY_WARNED: 'ALREADY_WARNED',
  /** Staff editing someone else's post or comment without a reason (422). */
  EDIT_REASON_REQUIRED: 'EDIT_REASON_REQUIRED',

  // ── notifications, follows, handles (issue #42, docs/notifications.md) ──
  /** Another member has this handle, ignoring case, or had it and was erased (409). */
  HANDLE_TAKEN: 'HANDLE_TAKEN',
  /** An unsubscribe link the forum did not sign, or for a member it no longer mails (400). */
  UNSUBSCRIBE_LINK_INVALID: 'UNSUBSCRIBE_LINK_INVALID',

  // ── moderation beyond comments (issue #43, docs/moderation.md) ──
  /** A report of the reporter's own post (422). */
  OWN_POST_REPORT: 'OWN_POST_REPORT',
  /** A comment on a locked post (409). */
  POST_LOCKED: 'POST_LOCKED',
  /** A pin while PINNED_MAX posts are pinned (409). */
  PIN_LIMIT_REACHED: 'PIN_LIMIT_REACHED',
  /** A write by a suspended member (403); `details` is SuspensionDetails. */
  MEMBER_SUSPENDED: 'MEMBER_SUSPENDED',
  /** A moderation action on staff that the actor's role does not allow: a moderator on staff, anyone suspending an admin (403). */
  STAFF_PROTECTED: 'STAFF_PROTECTED',
  /** Making an admin a moderator (409): an admin holds every moderator's power already. */
  ALREADY_ADMIN: 'ALREADY_ADMIN',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | (string & {});
/** An error code of the HTTP contract, by name (its value is its name). */
export type ErrorCodeName = keyof typeof ErrorCode;

/**
 * The status each code is answered with, written here only: the platform's errors (AppError) and the
 * command side's domain errors take theirs from it, and the API document (GET /api/openapi.json) lists
 * each route's codes under it. UNAVAILABLE is also a 502 from the replicated layout's gateway when a
 * write's answer was cut off (docs/replicated.md).
 */
export const ERROR_STATUS: Readonly<Record<ErrorCodeName, number>> = {
  VALIDATION_FAILED: 400,
  UNSUBSCRIBE_LINK_INVALID: 400,
  UNAUTHENTICATED: 401,
  ACCOUNT_DISABLED: 401,
  FORBIDDEN: 403,
  MEMBER_SUSPENDED: 403,
  STAFF_PROTECTED: 403,
  NOT_FOUND: 404,
  GONE: 410,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_DOUBT: 409,
  ALREADY_MEMBER: 409,
  PURCHASE_IN_PROGRESS: 409,
  ILLEGAL_VOTE_TRANSITION: 409,
  ALREADY_REPORTED: 409,
  TAG_EXISTS: 409,
  ALREADY_WARNED: 409,
  HANDLE_TAKEN: 409,
  POST_LOCKED: 409,
  PIN_LIMIT_REACHED: 409,
  ALREADY_ADMIN: 409,
  ALREADY_REGISTERED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  POST_LIMIT_REACHED: 422,
  PAYMENT_FAILED: 422,
  CANNOT_ERASE_SELF: 422,
  OWN_POST_VOTE: 422,
  OWN_COMMENT_REPORT: 422,
  EDIT_REASON_REQUIRED: 422,
  OWN_POST_REPORT: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  READ_TIMEOUT: 503,
  BUSY: 503,
};

export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `details` of VALIDATION_FAILED: one message per field path ("title", "tags.0"). */
export const FieldErrors = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof FieldErrors>;

/**
 * A zod error as FieldErrors: each issue's message under its path ('_' for the whole value); a key
 * that is not a field of the call (a strict object's) under its own name, saying so. Any key is
 * kept as the key it is (`__proto__`, `constructor`).
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const fields = new Map<string, string[]>();
  const add = (path: readonly PropertyKey[], message: string) => {
    const key = path.length > 0 ? path.map(String).join('.') : '_';
    fields.set(key, [...(fields.get(key) ?? []), message]);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add([...issue.path, key], unknownFieldMessage(key));
    else add(issue.path, issue.message);
  }
  return Object.fromEntries(fields);
}

/** What a body's key that is not a field of the call is told (every command refuses one: `z.strictObject`). */
export const unknownFieldMessage = (key: string) => `${key} is not a field of this call`;
