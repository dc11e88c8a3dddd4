import type { Validator } from 'react-admin';

/** The page's words for a To before From (the API refuses the same span with AUDIT_EMPTY_SPAN). */
export const TO_BEFORE_FROM = 'To must not be before From';

/**
 * To's rule: not before From. Both hold instants (the start of From's day, the end of To's), so
 * the same day is a span of one day.
 */
export const toNotBeforeFrom: Validator = (until: unknown, values: { since?: unknown }) =>
  typeof until === 'string' && until !== '' && typeof values.since === 'string' && values.since !== '' && Date.parse(values.since) > Date.parse(until)
    ? TO_BEFORE_FROM
    : undefined;
