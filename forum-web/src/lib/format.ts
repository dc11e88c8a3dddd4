const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A post or comment date as the reader's locale writes it; the raw value when unparsable. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}
