import { z } from 'zod';
import { COMMENT_PAGE_MAX, COMMENT_PAGE_SIZE } from '../constants.ts';
import { wholeNumber } from '../text-policy.ts';
import { CommentItem } from './community.ts';

/**
 * Pages of lists that grow (docs/security/paging.md). A keyset page starts after the row a cursor names,
 * so page 1000 costs what page 1 does and rows added meanwhile neither repeat nor skip a row
 * of the pages still to come.
 */

/** The whole list's count on an answer whose body is the spec's bare array (its first UNPAGED_LIST_MAX rows). */
export const HEADER_TOTAL_COUNT = 'X-Total-Count';

const LIST_ORDERS = ['oldest', 'newest'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

/**
 * Where a keyset page of a list in time order ends: its last row's time, in microseconds since
 * 1970 as PostgreSQL keeps it (a decimal string: beyond what a JS number holds exactly), and id.
 */
export interface KeysetPosition {
  readonly micros: string;
  readonly id: string;
}

const CURSOR_MAX = 120;
const CURSOR_TEXT = /^([on]):(-?\d{1,18}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * The cursor of the page after `at`, in `order`. Clients treat it as opaque and pass back what
 * `nextCursor` gave; it names its order, so it cannot continue the list the other way round.
 */
export function pageCursor(order: ListOrder, at: KeysetPosition): string {
  return btoa(`${order[0]}:${at.micros}:${at.id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The position a cursor of `order` names, or null when it is not one (another order's, made up, cut). */
function parsePageCursor(cursor: string, order: ListOrder): KeysetPosition | null {
  if (cursor.length > CURSOR_MAX || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const match = CURSOR_TEXT.exec(text);
  if (!match || match[1] !== order[0]) return null;
  return { micros: match[2]!, id: match[3]! };
}

/**
 * GET /api/posts/:id/comments?order=oldest|newest&after=<cursor>&limit=n: a page of a post's
 * comments, oldest first unless `order` says newest; `after` is the `nextCursor` of the page before.
 */
export const PostCommentsQuery = z
  .object({
    order: z.enum(LIST_ORDERS, 'Order must be oldest or newest').default('oldest'),
    after: z.string('Not a cursor of this list').optional(),
    limit: wholeNumber('Limit')
      .pipe(z.number().min(1, 'Limit starts at 1').max(COMMENT_PAGE_MAX, `Limit must be at most ${COMMENT_PAGE_MAX}`))
      .default(COMMENT_PAGE_SIZE),
  })
  .transform(({ after, ...query }, ctx) => {
    if (after === undefined) return { ...query, after: null };
    const position = parsePageCursor(after, query.order);
    if (!position) {
      ctx.addIssue({ code: 'custom', path: ['after'], message: 'Not a cursor of this list' });
      return z.NEVER;
    }
    return { ...query, after: position };
  });
export type PostCommentsQuery = z.output<typeof PostCommentsQuery>;

/** A page of a post's comments: `nextCursor` continues it (null on the last page); `totalCount` counts them all. */
export const CommentsPage = z.object({ comments: z.array(CommentItem), nextCursor: z.string().nullable(), totalCount: z.number().int() });
export type CommentsPage = z.infer<typeof CommentsPage>;
