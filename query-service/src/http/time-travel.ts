import {
  compareLogPositions,
  HistoryParams,
  HistoryStatesParams,
  HistoryStatesQuery,
  parsePositionToken,
  positionToken,
  StateAtQuery,
  type HistoryKind,
  HEADER_TOTAL_COUNT,
  HistoryStates,
  rangeOr,
  type LogPosition,
  Snapshot,
  StateAt,
  UNPAGED_LIST_MAX,
} from '@forum/contracts';
import { history, type HistoryReader } from '@forum/eventstore';
import { NotFoundError, type Knex } from '@forum/platform';
import { listSnapshots } from '@forum/projections/read-model';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { stateChanges } from '../reads/state-changes.ts';
import { adminOnly } from './access.ts';
import { rangeAnswers, rangeQuery, sendRange, totalCountHeaders } from './range.ts';

/**
 * A user's or a post's states through its own stream: before its first event, and after each. The
 * composition gives it (the write side's fold, which the query side does not import).
 */
export type EntityTimelines = (
  kind: HistoryKind,
  id: string,
) => Promise<{ readonly initial: unknown; readonly steps: readonly { readonly position: LogPosition; readonly state: unknown }[] }>;

type Timeline = Awaited<ReturnType<EntityTimelines>>;

/** The state at `position`: after the last step at or before it (`strictly`: before it). */
function stateAt(timeline: Timeline, position: LogPosition, strictly = false) {
  const step = timeline.steps.findLast((s) => compareLogPositions(s.position, position) < (strictly ? 0 : 1));
  return { step: step ?? null, state: step ? step.state : timeline.initial };
}

const noSuch = (kind: HistoryKind) => new NotFoundError(kind === 'post' ? 'No such post' : 'No such user');

/**
 * Time travel's reads for the console (admins only: 401 without a token, 403 for anyone else;
 * docs/console.md): an entity's states along its history, its state as of a position, and the
 * snapshots of the read models (`forumctl snapshot`).
 */
export function timeTravelRoutes(events: HistoryReader, timelines: EntityTimelines, db: Knex): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    /**
     * For each event of the same page of the history as GET /api/admin/history/:kind/:id (same
     * `after` and `limit`), the state after it and what it changed; 404 when there is no history.
     */
    api.get(
      '/admin/history/:kind/:id/states',
      {
        preValidation: adminOnly,
        schema: { answers: { 200: { body: HistoryStates } }, errors: ['NOT_FOUND'], params: HistoryStatesParams, querystring: HistoryStatesQuery },
      },
      async (request) => {
        const { kind, id } = request.params;
        const { after, limit } = request.query;
        const [page, timeline] = await Promise.all([history(events, kind, id, { after, limit }), timelines(kind, id)]);
        if (page.length === 0 && (after === undefined || (await history(events, kind, id, { limit: 1 })).length === 0)) throw noSuch(kind);
        const body: HistoryStates = {
          kind,
          id,
          states: page.map((entry) => {
            const position = parsePositionToken(entry.position)!;
            const now = stateAt(timeline, position).state;
            return { position: entry.position, state: now, changes: stateChanges(stateAt(timeline, position, true).state, now) };
          }),
        };
        return body;
      },
    );

    /** The state as of a position of the log (`at`, a token the history shows); 404 when the entity has no event at all. */
    api.get(
      '/admin/history/:kind/:id/state',
      { preValidation: adminOnly, schema: { answers: { 200: { body: StateAt } }, errors: ['NOT_FOUND'], params: HistoryParams, querystring: StateAtQuery } },
      async (request) => {
        const { kind, id } = request.params;
        const timeline = await timelines(kind, id);
        if (timeline.steps.length === 0) throw noSuch(kind);
        const { step, state } = stateAt(timeline, request.query.at);
        const body: StateAt = { kind, id, at: positionToken(request.query.at), position: step && positionToken(step.position), state };
        return body;
      },
    );

    /** The snapshots, newest first: react-admin's `range` of them, or the newest UNPAGED_LIST_MAX, all of them counted in X-Total-Count. */
    api.get(
      '/admin/snapshots',
      { preValidation: adminOnly, schema: { answers: rangeAnswers(Snapshot.array(), Snapshot, [HEADER_TOTAL_COUNT]), queryParameters: rangeOr() } },
      async (request, reply) => {
        const snapshots: Snapshot[] = await listSnapshots(db);
        const range = rangeQuery(request);
        if (range) return sendRange(reply, 'snapshots', snapshots.slice(range.start, range.end + 1), range.start, snapshots.length);
        return reply.headers(totalCountHeaders(snapshots.length)).send(snapshots.slice(0, UNPAGED_LIST_MAX));
      },
    );
    done();
  };
}
