import { ADMIN_PAGE_SIZE, HEADER_TOTAL_COUNT, PAGE_MAX } from '@forum/contracts';
import { ValidationError } from '@forum/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * react-admin's list protocol (ra-data-simple-rest): `range=[0,9]`,
 * `sort=["field","ASC"]`, `filter={}`; the answer is the array with
 * `Content-Range: <resource> 0-9/<total>`.
 */
export interface RangeQuery {
  start: number;
  end: number;
  field: string;
  direction: 'ASC' | 'DESC';
  filter: Record<string, unknown>;
}

const MAX_RANGE = 100;
/** The first row of a range is at most where the deepest page (PAGE_MAX) of the admin lists begins. */
const MAX_START = PAGE_MAX * ADMIN_PAGE_SIZE;
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

const RangeParams = z.object({
  range: rangeText.pipe(
    z.tuple([z.number().min(0).max(MAX_START), z.number().min(0)]).refine(([s, e]) => e >= s && e - s < MAX_RANGE, `At most ${MAX_RANGE} rows, end >= start`),
  ),
  sort: json(z.tuple([z.string(), z.enum(['ASC', 'DESC', 'asc', 'desc'])])).optional(),
  filter: json(z.record(z.string(), z.unknown())).optional(),
});

/** The react-admin query of a list call, or null when the call is not one. */
export function rangeQuery(request: FastifyRequest): RangeQuery | null {
  const query = request.query as Record<string, unknown>;
  if (query.range === undefined) return null;
  const parsed = RangeParams.safeParse(query);
  if (!parsed.success) {
    throw new ValidationError(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? '_'), [i.message]])));
  }
  const [start, end] = parsed.data.range;
  const [field, direction] = parsed.data.sort ?? ['id', 'ASC'];
  return { start, end, field, direction: direction.toUpperCase() as 'ASC' | 'DESC', filter: parsed.data.filter ?? {} };
}

/** The answer to a list call: `items`, and their place in the list in Content-Range. */
export function sendRange(reply: FastifyReply, resource: string, items: unknown[], start: number, total: number): FastifyReply {
  const end = items.length > 0 ? start + items.length - 1 : start;
  return reply.header('Content-Range', `${resource} ${items.length > 0 ? `${start}-${end}` : '*'}/${total}`).send(items);
}

/** The headers of a bounded bare-array answer (the spec's unpaged calls): the whole list's count (the gateway's CORS exposes it to configured origins). */
export function totalCountHeaders(total: number): Record<string, string> {
  return { [HEADER_TOTAL_COUNT]: String(total) };
}
