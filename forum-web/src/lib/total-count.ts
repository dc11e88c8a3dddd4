import { HEADER_TOTAL_COUNT } from '@forum/contracts';
import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';

/**
 * How many the whole list holds, as an answer cut at the API's bound says in X-Total-Count; the
 * answer's own length when it says nothing that fits.
 */
export function totalCountOf(meta: unknown, shown: number): number {
  const total = Number((meta as FetchBaseQueryMeta | undefined)?.response?.headers.get(HEADER_TOTAL_COUNT));
  return Number.isFinite(total) && total >= shown ? total : shown;
}
