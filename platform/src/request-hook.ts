import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A hook of the platform's (the bulkhead, cancellation) for any hook point from onRequest to
 * preHandler: without Fastify's `this` type, so a server of any type provider takes it.
 */
export type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
