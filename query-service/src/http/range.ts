import { HEADER_CONTENT_RANGE, HEADER_TOTAL_COUNT, RangeQuery as RangeParams } from '@forum/contracts';
import { ValidationError, type AnswerHeaderName } from '@forum/platform';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
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
  return reply.header(HEADER_CONTENT_RANGE, `${resource} ${items.length > 0 ? `${start}-${end}` : '*'}/${total}`).send(items);
}

/** The headers of a bounded bare-array answer (the spec's unpaged calls): the whole list's count (the gateway's CORS exposes it to configured origins). */
export function totalCountHeaders(total: number): Record<string, string> {
  return { [HEADER_TOTAL_COUNT]: String(total) };
}

/**
 * The success answer of a list that answers react-admin's range too (FastifySchema.answers): its own
 * `body` (with its `headers`), or the range's `row`s, each with its `id`, and Content-Range.
 */
export function rangeAnswers(body: z.ZodType, row: z.ZodObject, headers: readonly AnswerHeaderName[] = []): FastifySchema['answers'] {
  const ranged = ('id' in row.shape ? row : row.extend({ id: z.string() })).array();
  // the range's rows first: a row with an `id` read as the own body's row would lose it
  return { 200: { body: z.union([ranged, body]), headers: [HEADER_CONTENT_RANGE, ...headers] } };
}
