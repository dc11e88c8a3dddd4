const dateOptions: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const dateTimeOptions: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
/**
 * `iso` written by the formatter `options` describe (with no locale: the reader's), the raw value when
 * unparsable. The formatter is made on the first date written: each takes the engine some
 * milliseconds to make, which loading a page that shows no date yet does not spend.
 */
const formatted = (options: Intl.DateTimeFormatOptions, locale?: string) => {
  let format: Intl.DateTimeFormat | undefined;
  return (iso: string) => {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    format ??= new Intl.DateTimeFormat(locale, options);
    return format.format(date);
  };
};

/** A reason or other text a person typed, ended by one full stop whether or not they typed it. */
export const asSentence = (text: string) => `${text.replace(/[.\s]+$/u, '')}.`;

/** A post or comment date as the reader's locale writes it; the raw value when unparsable. */
export const formatDate = formatted(dateOptions);

/** A date and time ('Posted on', 'Reported At') as the reader's locale writes it; the raw value when unparsable. */
export const formatDateTime = formatted(dateTimeOptions);

/**
 * A date as a server-rendered page writes it (entry-server) and the browser while it hydrates that
 * page: one locale and time zone on both sides, so the markup matches; the reader's own once hydrated.
 */
export const formatServerDate = formatted({ ...dateOptions, timeZone: 'UTC' }, 'en-US');
const serverDateTime = formatted({ ...dateTimeOptions, timeZone: 'UTC' }, 'en-US');

/** A date and time as a server-rendered page writes it: en-US, UTC, the zone named. */
export const formatServerDateTime = (iso: string) => {
  const text = serverDateTime(iso);
  return text === iso ? iso : `${text} UTC`;
};
