const dateOptions: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const dateTimeOptions: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
const dateFormat = new Intl.DateTimeFormat(undefined, dateOptions);
const dateTimeFormat = new Intl.DateTimeFormat(undefined, dateTimeOptions);
/**
 * The server's rendering of a date (entry-server) and the browser's while it hydrates that page: one
 * locale and time zone on both sides, so the markup matches; the reader's own once hydrated.
 */
const SERVER_DATE = new Intl.DateTimeFormat('en-US', { ...dateOptions, timeZone: 'UTC' });
const SERVER_DATE_TIME = new Intl.DateTimeFormat('en-US', { ...dateTimeOptions, timeZone: 'UTC' });

const formatted = (format: Intl.DateTimeFormat) => (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
};

/** A reason or other text a person typed, ended by one full stop whether or not they typed it. */
export const asSentence = (text: string) => `${text.replace(/[.\s]+$/u, '')}.`;

/** A post or comment date as the reader's locale writes it; the raw value when unparsable. */
export const formatDate = formatted(dateFormat);

/** A date and time ('Posted on', 'Reported At') as the reader's locale writes it; the raw value when unparsable. */
export const formatDateTime = formatted(dateTimeFormat);

/** A date as a server-rendered page writes it (and the browser while hydrating it): en-US, UTC. */
export const formatServerDate = formatted(SERVER_DATE);

/** A date and time as a server-rendered page writes it: en-US, UTC, the zone named. */
export const formatServerDateTime = (iso: string) => {
  const text = formatted(SERVER_DATE_TIME)(iso);
  return text === iso ? iso : `${text} UTC`;
};
