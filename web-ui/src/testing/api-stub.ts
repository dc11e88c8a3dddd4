import { http, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A JSON answer as fetch gives it. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** The API's 429 RATE_LIMITED answer: `message` says when to try again, in `seconds` (also its Retry-After). */
export const rateLimited = (message: string, seconds: number) =>
  json({ error: { code: 'RATE_LIMITED', message, details: { retryAfterSeconds: seconds } } }, 429, { 'Retry-After': String(seconds) });

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
/** What a route answers: a status, body and headers, or a whole Response (such as rateLimited's). */
export type Reply = Answer | Response | Promise<Answer | Response>;
/** The named parts of a route's path (`:id` in "GET /api/posts/:id"), as the request gave them. */
export type Params = Record<string, string>;
/**
 * Answers by "METHOD /api/path"; a path may name parts (`/api/posts/:id`) or end in `*`, and the
 * method `*` takes any. A call no route matches answers 404 NOT_FOUND, so a test sees it.
 */
export type Routes = Record<string, (request: Request, params: Params) => Reply>;

// one interceptor of fetch for a test file; each stubApi replaces the routes of the one before
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const methods = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete, '*': http.all } as const;

/** "METHOD /path" of a request, as `calls` records it. */
const callOf = (request: Request) => `${request.method} ${new URL(request.url).pathname}`;

/**
 * The forum's HTTP API for the rest of the test, answered from `routes` (mock service worker
 * intercepts fetch). Every call is recorded in `calls` as "METHOD /api/path", in order.
 */
export function stubApi(routes: Routes) {
  const calls: string[] = [];
  const handlers: HttpHandler[] = Object.entries(routes).map(([key, answer]) => {
    const [method, path] = key.split(' ') as [keyof typeof methods, string];
    return methods[method](path, async ({ request, params }) => {
      calls.push(callOf(request));
      return toResponse(await answer(request, params as Params));
    });
  });
  const unknown = http.all('*', ({ request }) => {
    calls.push(callOf(request));
    return json({ error: { code: 'NOT_FOUND', message: `No stub for ${callOf(request)}` } }, 404);
  });
  server.resetHandlers(...handlers, unknown);
  return { calls };
}

function toResponse(reply: Answer | Response): Response {
  if (reply instanceof Response) return reply;
  return json(reply.body ?? {}, reply.status ?? 200, reply.headers);
}
