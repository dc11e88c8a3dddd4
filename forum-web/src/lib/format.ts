const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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
