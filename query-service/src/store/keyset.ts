/**
 * Keyset positions in SQL (see KeysetPosition in @forum/contracts): a timestamptz as whole
 * microseconds since 1970, exactly as PostgreSQL keeps it, and back. Keyset conditions compare
 * these, never a JS Date (milliseconds), so a page never repeats or skips a row that shares its
 * millisecond with the last one shown.
 */

/** The microseconds of the timestamptz expression `column`, as text (a bigint beyond a JS number). */
export const MICROS_OF = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;

/** The timestamptz at a bound parameter's microseconds. */
export const AT_MICROS = `('epoch'::timestamptz + ?::bigint * interval '1 microsecond')`;
