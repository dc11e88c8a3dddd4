import { UnavailableError } from './errors.ts';

/**
 * PostgreSQL's answers that say the server cannot serve now, not that the statement was wrong:
 * class 08 (connection exception), 57P01-57P03 (shut down by an operator, crashed, still starting),
 * 53100 (disk full), 53200 (out of memory), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53100', '53200', '53300']);

/** What the network says when the server is not there or went away (a refused, reset or timed-out connection). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** pg's error when a statement's answer did not come within query_timeout. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * What pg, pg-pool and knex say of a lost or unobtainable connection (they give it no code); knex
 * puts the statement before the message (`select … - Connection terminated unexpectedly`).
 */
const CONNECTION_MESSAGES = [
  /\bConnection terminated (unexpectedly|due to connection timeout)/, // the server closed the session, or the connect timed out
  /\btimeout exceeded when trying to connect\b/, // pg-pool
  /\bClient has encountered a connection error and is not queryable\b/,
  /\bClient was closed and is not queryable\b/, // a connection ended after its statement timed out
  /(^|- )timeout expired$/, // pg's connect timeout (connectionTimeoutMillis)
  /\bKnex: Timeout acquiring a connection\b/,
  new RegExp(`\\b${QUERY_READ_TIMEOUT}\\b`), // pg's query_timeout
];

/**
 * Whether `error` (or one it wraps: `cause`, an AggregateError's errors) says the database cannot
 * be reached or cannot serve just now: the request may succeed if sent again in a moment.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || NETWORK_CODES.has(code))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}

/** What the system says of a write to a full filesystem (ENOSPC), in PostgreSQL's messages too. */
const DISK_FULL_TEXT = /\bNo space left on device\b/;

/** Whether `text` (an error's message, a line PostgreSQL wrote) says that a disk is full. */
export const saysDiskFull = (text: string) => DISK_FULL_TEXT.test(text);

/**
 * Whether `error` (or one it wraps) says that the database's disk is full: SQLSTATE 53100, or the
 * system's ENOSPC in its words. Writes fail until space is freed; reads go on.
 */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (code === '53100' || (typeof message === 'string' && saysDiskFull(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDiskFull(inner, depth + 1))) return true;
  return cause !== undefined && isDiskFull(cause, depth + 1);
}

/** The answer while the database is out of reach: 503, try again in a moment (Retry-After: 1). */
export class DatabaseUnavailableError extends UnavailableError {
  constructor() {
    super('The forum cannot reach its database just now. Please try again in a moment.');
  }
}
