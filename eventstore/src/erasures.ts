import { AccountErased } from '@forum/contracts';

/** What one `AccountErased` destroys: its member's identity key, and their content key when their content goes. */
export interface Erasure {
  readonly subject: string;
  readonly contentErased: boolean;
}

/**
 * The erasures among events about to be appended, for an adapter that keeps the keys outside the
 * log's SQL (sealing-sql.ts's `erase_subject` does the same in PostgreSQL).
 */
export function erasuresIn(events: readonly { readonly type: string; readonly data: unknown }[]): Erasure[] {
  return events.flatMap((event) => {
    if (event.type !== AccountErased.type || event.data === null || typeof event.data !== 'object') return [];
    const { userId, content } = event.data as { userId?: unknown; content?: unknown };
    return typeof userId === 'string' ? [{ subject: userId, contentErased: content === 'erased' }] : [];
  });
}
