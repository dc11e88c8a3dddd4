import { eventTypeFilter, type RegexFilter } from '@kurrent/kurrentdb-client';

/**
 * The server-side filters of reads of `$all`. KurrentDB's own events (`$metadata`, `$>`, projections'
 * state…) and this adapter's bookkeeping (`$Idempotency…`, idempotency.ts) have types that begin with
 * `$`; the forum's never do. Every read of the log leaves them out on the server, so a reader is
 * sent only the forum's events.
 */

/** Escapes a type name for a regular expression (the forum's are letters, but a filter must not depend on it). */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The regular expression of a filter: every type not beginning with `$`, or only `types` when given
 * (an empty list matches nothing).
 */
export function typesPattern(types?: readonly string[]): string {
  if (types === undefined) return '^[^$]';
  const forum = types.filter((type) => !type.startsWith('$'));
  if (forum.length === 0) return '^(?!)';
  return `^(?:${[...new Set(forum)].map(escape).join('|')})$`;
}

/** The filter for a read or subscription of `$all`: the forum's events, of `types` when given. */
export const logFilter = (types?: readonly string[]): RegexFilter => eventTypeFilter({ regex: typesPattern(types) });
