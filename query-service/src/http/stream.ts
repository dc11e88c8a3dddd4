import { parsePositionToken, StreamQuery, type LogPosition, StreamTicket } from '@forum/contracts';
import { z } from 'zod';
import { AccountDisabledError, BusyError, markStreamingAnswer, RateLimitedError, UnauthenticatedError } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { LiveChanges } from '../live/live-changes.ts';
import { signedIn } from './access.ts';
import type { ViewerCache } from './viewer-cache.ts';

/** The headers of a stream: no cache of any kind, no proxy buffering (nginx reads X-Accel-Buffering). */
const STREAM_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' };

/** A stream's answer: Server-Sent Events, each message's data one of StreamMessages by its event name (docs/live.md). */
const STREAM_ANSWERS = {
  200: {
    body: z.string().describe('Server-Sent Events: `event:` one of StreamMessages, `id:` its position, `data:` its JSON (docs/live.md)'),
    mediaType: 'text/event-stream',
  },
};

/**
 * GET /api/stream: the change stream (docs/live.md), Server-Sent Events from this process's hub.
 * Registered outside the API's read hooks: a stream is not a read to answer from memory, to hold
 * for X-Min-Position, or to put through a bulkhead, and it is written to the socket itself
 * (hijacked: no onSend hook buffers it), with the headers the gateway set already (security, CORS).
 * A member's own messages (`me`) need a ticket (GET /api/stream/ticket) since an EventSource sends
 * no Authorization; the account is checked as the stream opens, and the follower ends the stream
 * if the account is disabled or erased later.
 */
export function streamRoutes(live: LiveChanges, records: ViewerCache): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get(
      '/stream',
      { schema: { answers: STREAM_ANSWERS, errors: ['UNAUTHENTICATED', 'ACCOUNT_DISABLED', 'BUSY', 'RATE_LIMITED'], querystring: StreamQuery } },
      async (request, reply) => {
        const { topics, ticket, lastEventId } = request.query;
        const memberId = topics.includes('me') ? await streamOwner(live, records, ticket) : null;
        if (!live.hub.accepting) throw new BusyError('streams');
        const client = live.clientOf(request.raw);
        if (!live.hub.takes(client)) throw new RateLimitedError('Too many open streams from this address; close some tabs or try again later', 30);
        if (request.method === 'HEAD') return reply.headers(STREAM_HEADERS).send();
        const res = reply.raw;
        reply.hijack();
        markStreamingAnswer(res);
        res.writeHead(200, STREAM_HEADERS);
        request.raw.socket.setNoDelay(true);
        const stream = live.hub.open(res, { topics, memberId, resumeAfter: resumedAfter(request.headers['last-event-id'], lastEventId), client });
        // closed in between (the server stops): the client reconnects elsewhere
        if (!stream) return void res.end();
        res.once('close', () => stream.close());
      },
    );
    done();
  };
}

/** GET /api/stream/ticket: what opens the signed-in member's own stream for a short while (a route among the reads: it needs the caller). */
export function streamTicketRoutes(live: LiveChanges): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get('/stream/ticket', { schema: { answers: { 200: { body: StreamTicket } }, errors: ['UNAUTHENTICATED'] } }, async (request, reply) => {
      const viewer = signedIn(request);
      reply.header('Cache-Control', 'no-store');
      const body: StreamTicket = { ticket: live.tickets.issue(viewer.id), expiresInSeconds: live.tickets.ttlSeconds };
      return body;
    });
    done();
  };
}

/**
 * The member a `me` stream belongs to: a valid ticket's (401 otherwise), whose account is not
 * disabled or erased. A ticket is given only to a verified token, so a member the users read model
 * has no row for yet is one not registered yet (the apps register after sign-in), read as every
 * other read reads them (see `viewer`), not refused.
 */
async function streamOwner(live: LiveChanges, records: ViewerCache, ticket: string | undefined): Promise<string> {
  const memberId = ticket === undefined ? null : live.tickets.memberOf(ticket);
  if (memberId === null) throw new UnauthenticatedError('The topic "me" needs a valid ticket from GET /api/stream/ticket');
  const { denied } = await records.read(memberId);
  if (denied) throw new AccountDisabledError(denied);
  return memberId;
}

/** Where a reconnecting client left off: the Last-Event-ID header, else `?lastEventId=`; one that is not a position is no resume. */
function resumedAfter(header: string | string[] | undefined, query: string | undefined): LogPosition | null {
  const sent = typeof header === 'string' ? header : query;
  return sent === undefined ? null : parsePositionToken(sent);
}
