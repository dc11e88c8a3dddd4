import { formatDate, formatDateTime, formatServerDate, formatServerDateTime } from '../lib/format';
import { useHydrated } from '../lib/hydrated';

/**
 * A date (with its time when `time`) as the reader's locale writes it; on a server-rendered page,
 * as the server wrote it (en-US, UTC) until the page is hydrated, so the markup matches.
 */
export function FormattedDate({ value, time = false }: { value: string; time?: boolean }) {
  const hydrated = useHydrated();
  if (time) return hydrated ? formatDateTime(value) : formatServerDateTime(value);
  return hydrated ? formatDate(value) : formatServerDate(value);
}
