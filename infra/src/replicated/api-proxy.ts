import { ErrorCode } from '@forum/contracts';
import {
  API_DOCUMENT_PATH,
  clientAddress,
  correlationIdOf,
  errorBody,
  mergeApiDocuments,
  UnavailableError,
  type ApiDocument,
  withTraceHeaders,
  type ProxyTrust,
} from '@forum/platform';
import replyFrom from '@fastify/reply-from';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DISCOVERY_PATHS } from '@forum/query-service';
import { connectionLost, neverReached, noAnswer, type ReplicaSet } from './replica-set.ts';

/** Bodies the gateway passes on (the services apply their own, smaller limits). */
const BODY_LIMIT = 4 * 1024 * 1024;

export interface ApiReplicas {
  /** The command-service's replicas: every method but GET and HEAD. */
  readonly command: ReplicaSet;
  /** The query-service's replicas: GET and HEAD, the change stream among them. */
  readonly query: ReplicaSet;
  /** The gateway's TRUST_PROXY: who the client is, as the replicas are told in X-Forwarded-For (they trust one hop, the gateway). */
  readonly trustProxy: ProxyTrust;
}

/** Methods that may be sent twice: a read whose connection broke, or that got no answer in time, goes to another replica. */
const reads = new Set(['GET', 'HEAD']);

/**
 * /api/* of the replicated layout (register under /api): each request goes, as it came, to a
 * replica of the service that answers its method. A request that reached no replica goes to
 * another; a read whose connection broke, or whose replica did not answer in time (ReplicaSet's
 * deadlines), is sent again; a write whose connection broke answers 502 UNAVAILABLE, and one that
 * got no answer in time 504 UNAVAILABLE, since it may have been done: its client sends it again
 * with the same Idempotency-Key, and the replica that takes it answers what the first did. Answers,
 * the change stream's among them, are piped through as they come.
 */
export function apiProxy(replicas: ApiReplicas): FastifyPluginAsync {
  return async (api) => {
    // the services read the bodies: the gateway passes their bytes on untouched
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
    for (const [set, methods] of [
      [replicas.query, ['GET']],
      [replicas.command, ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']],
    ] as const) {
      await api.register(async (context) => {
        // a base of its own, never reached: the replica set picks the replica
        await context.register(replyFrom, { base: `http://${set.name}.replicas`, undici: set, disableRequestLogging: true });
        const handler = (request: FastifyRequest, reply: FastifyReply) => forward(request, reply, set, replicas.trustProxy);
        for (const url of ['/', '/*']) context.route({ method: [...methods], url, handler });
      });
    }
  };
}

/**
 * The sitemap and the feeds of the replicated layout (register without a prefix): their reads go to
 * a query-service replica as /api's reads do; the paths are the query side's own (DISCOVERY_PATHS).
 */
export function discoveryProxy(replicas: Pick<ApiReplicas, 'query' | 'trustProxy'>): FastifyPluginAsync {
  return async (context) => {
    const set = replicas.query;
    await context.register(replyFrom, { base: `http://${set.name}.replicas`, undici: set, disableRequestLogging: true });
    for (const url of DISCOVERY_PATHS) context.get(url, (request, reply) => forward(request, reply, set, replicas.trustProxy));
  };
}

/**
 * The API document behind the proxy: each service's part (its GET /api/openapi.json, from a replica
 * that is up) merged; 503 while a service has none up.
 */
export async function servicesApiDocument(replicas: Pick<ApiReplicas, 'command' | 'query'>): Promise<ApiDocument> {
  const part = async (set: ReplicaSet) => {
    try {
      const { statusCode, body } = await set.request({ origin: `http://${set.name}.replicas`, path: API_DOCUMENT_PATH, method: 'GET' });
      if (statusCode === 200) return (await body.json()) as ApiDocument;
      await body.dump();
    } catch {
      // as below
    }
    throw new UnavailableError(`The ${set.name} did not give its part of the API document; try again shortly`);
  };
  return mergeApiDocuments(await Promise.all([part(replicas.command), part(replicas.query)]));
}

function forward(request: FastifyRequest, reply: FastifyReply, set: ReplicaSet, trust: ProxyTrust) {
  const method = request.method;
  const attempts = set.status().length + 1;
  try {
    return reply.from(request.url, {
      // Fastify kept the bytes: they go on as they came, with their Content-Type
      ...(Buffer.isBuffer(request.body) && { body: request.body, contentType: request.headers['content-type'] ?? 'application/octet-stream' }),
      // the replica's access line carries the gateway's correlation id: the two lines of one request are found together;
      // its span is the child of the gateway's (a traceparent the client sent is the gateway's parent, not the replica's)
      rewriteRequestHeaders: (_request, headers) =>
        withTraceHeaders(request.raw, {
          ...headers,
          'x-forwarded-for': clientAddress(request.raw, trust),
          'x-correlation-id': correlationIdOf(request.raw),
        }),
      retryDelay: ({ err, attempt }) => {
        if (!err || attempt + 1 >= attempts) return null;
        return neverReached(err) || (reads.has(method) && (connectionLost(err) || noAnswer(err))) ? 1 : null;
      },
      onError: (failed, { error }) => {
        const cause = (error as { cause?: unknown }).cause ?? error;
        const code = (cause as { code?: string }).code;
        request.log.warn({ code, replicaSet: set.name }, 'no replica answered');
        // nothing reached a replica: the request was not done; else it may have been
        const [status, message] = neverReached(cause)
          ? [503, 'The service is unavailable; try again shortly']
          : noAnswer(cause)
            ? [504, 'The service did not answer in time; it may have done the request: send it again (with the same Idempotency-Key)']
            : [502, 'The service’s answer was cut off; send the request again (with the same Idempotency-Key)'];
        void failed.code(status).header('retry-after', '1').send(errorBody(ErrorCode.UNAVAILABLE, message));
      },
    });
  } catch {
    // a path the proxy will not forward (an escaping `..`, broken %-encoding)
    return reply.code(400).send(errorBody(ErrorCode.VALIDATION_FAILED, 'The request’s path is not valid'));
  }
}
