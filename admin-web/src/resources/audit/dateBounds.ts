/**
 * The date filter of the staff action log: the admin picks days in their own time zone; the API
 * takes instants (`since` inclusive, `until` inclusive to the millisecond). A DateInput shows
 * 'YYYY-MM-DD' and stores the instant that day starts (From) or ends (To) where the admin is.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** The local day of an instant, as a date input shows it ('' when there is none). */
export function localDay(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const atLocal = (day: string, time: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return '';
  const date = new Date(`${day}T${time}`); // no offset: local time
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
};

/** The instant a local day starts ('' for none). */
export const startOfLocalDay = (day: string) => atLocal(day, '00:00:00.000');

/** The last millisecond of a local day ('' for none). */
export const endOfLocalDay = (day: string) => atLocal(day, '23:59:59.999');
