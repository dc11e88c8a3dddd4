import { z } from 'zod';
import { ADMIN_PAGE_SIZE, COMMENT_PAGE_MAX, COMMENT_PAGE_SIZE, PAGE_MAX } from '../constants.ts';
import { wholeNumber } from '../text-policy.ts';
import { CommentItem } from './community.ts';

/**
 * Pages of lists that grow (docs/security/paging.md). A keyset page starts after the row a cursor names,
 * so page 1000 costs what page 1 does and rows added meanwhile neither repeat nor skip a row
 * of the pages still to come.
 */

/** The whole list's count on an answer whose body is the spec's bare array (its first UNPAGED_LIST_MAX rows). */
export const HEADER_TOTAL_COUNT = 'X-Total-Count';
/** Where react-admin's range of a list is in the whole list: `<resource> <first>-<last>/<total>` (`*` for an empty range). */
export const HEADER_CONTENT_RANGE = 'Content-Range';

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

// ── react-admin's lists ────────────────────────────────────────────────────

const RANGE_MAX = 100;
/** The first row of a range is at most where the deepest page (PAGE_MAX) of the admin lists begins. */
const RANGE_START_MAX = PAGE_MAX * ADMIN_PAGE_SIZE;

/** JSON in a query parameter, then `schema`. */
const json = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** `[start,end]`: JSON's brackets around two numbers written as every number of a query string is (DECIMAL_INTEGER). */
const RANGE_TEXT = /^\[\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\]$/;
const rangeText = z.string().transform((text, ctx) => {
  const match = RANGE_TEXT.exec(text);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: 'Range must be [start,end], two whole numbers in digits 0-9' });
    return z.NEVER;
  }
  return [Number(match[1]), Number(match[2])];
});

/**
 * react-admin's list protocol (ra-data-simple-rest): `range=[0,9]`, `sort=["field","ASC"]`,
 * `filter={}`; the answer is the array of the range's rows, each with its `id`, and
 * `Content-Range: <resource> 0-9/<total>`. The admin lists answer it beside their own query.
 */
export const RangeQuery = z.object({
  range: rangeText
    .pipe(
      z
        .tuple([z.number().min(0).max(RANGE_START_MAX), z.number().min(0)])
        .refine(([s, e]) => e >= s && e - s < RANGE_MAX, `At most ${RANGE_MAX} rows, end >= start`),
    )
    .describe(`react-admin's range: [first,last], at most ${RANGE_MAX} rows`),
  sort: json(z.tuple([z.string(), z.enum(['ASC', 'DESC', 'asc', 'desc'])]))
    .optional()
    .describe('react-admin\'s sort, with `range`: ["field","ASC"|"DESC"]'),
  filter: json(z.record(z.string(), z.unknown())).optional().describe("react-admin's filter, with `range`: a JSON object"),
});

/**
 * The query of a list that answers react-admin's range (RangeQuery) beside its own `query`, for the
 * API document: the route parses the one or the other (a parameter of both names either).
 */
export function rangeOr(query?: z.ZodObject): z.ZodObject {
  const own: Record<string, z.ZodType> = { ...query?.shape };
  const range: Record<string, z.ZodType> = RangeQuery.partial().shape;
  return z.object({
    ...range,
    ...own,
    ...Object.fromEntries(
      Object.keys(own)
        .filter((key) => key in range)
        .map((key) => [key, z.union([own[key]!, range[key]!])]),
    ),
  });
}
