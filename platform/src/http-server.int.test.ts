import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ErrorCode, NoBody } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConflictError, parseInput, RateLimitedError } from './errors.ts';
import { answerClientErrors, createHttpApp, errorHandler, JSON_BODY_LIMIT, jsonBody, notFoundHandler } from './http.ts';
import { apiInput, createHttpServer, type HttpServer } from './http-server.ts';
import { createLogger, requestLogger } from './logger.ts';

/**
 * The Fastify server answers every refusal byte for byte as the Express app does today: both are
 * built from the platform's two factories with the same routes, listen on real ports, and get the
 * same requests over real HTTP.
 */
const Post = z.object({ title: z.string().min(1), tags: z.array(z.string()).max(2).optional() });
const Page = z.object({ page: z.coerce.number().int().min(1).optional() });

type Line = Record<string, unknown>;
const logInto = (lines: Line[]) =>
  createLogger('http-server-test', 'info', { format: 'json', destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) }) });

const expressLines: Line[] = [];
const fastifyLines: Line[] = [];
let expressServer: Server;
let fastifyServer: HttpServer;
let expressBase: string;
let fastifyBase: string;

function conflict(): never {
  throw new ConflictError('This name is taken', ErrorCode.CONFLICT, { name: ['taken'] });
}
function limited(): never {
  throw new RateLimitedError('Slow down', 7);
}
function broken(): never {
  throw new Error('a secret the client must not see');
}

beforeAll(async () => {
  const expressLogger = logInto(expressLines);
  const app = createHttpApp();
  app.use(requestLogger(expressLogger));
  app.use('/api', jsonBody());
  app.post('/api/posts', (req, res) => void res.json(parseInput(Post, req.body)));
  app.get('/api/posts', (req, res) => void res.json(parseInput(Page, req.query)));
  app.get('/api/posts/:id', (req, res) => void res.json({ id: req.params.id }));
  app.delete('/api/posts', (req, res) => void res.json(parseInput(Post, req.body)));
  app.delete('/api/posts/:id', (req, res) => void res.json({ id: req.params.id, body: parseInput(NoBody, req.body) ?? 'none' }));
  app.get('/api/conflict', conflict);
  app.get('/api/limited', limited);
  app.get('/api/broken', broken);
  app.use(notFoundHandler);
  app.use(errorHandler(expressLogger));
  expressServer = app.listen(0, '127.0.0.1');
  answerClientErrors(expressServer);
  await once(expressServer, 'listening');
  expressBase = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`;

  fastifyServer = createHttpServer({ logger: logInto(fastifyLines) });
  fastifyServer.post('/api/posts', { schema: { body: Post } }, async (request) => request.body);
  fastifyServer.get('/api/posts', { schema: { querystring: Page } }, async (request) => request.query);
  fastifyServer.get('/api/posts/:id', { schema: { params: z.object({ id: z.string() }) } }, async (request) => ({ id: request.params.id }));
  fastifyServer.delete('/api/posts', { schema: { body: Post } }, async (request) => request.body);
  fastifyServer.delete('/api/posts/:id', { schema: { body: NoBody } }, async (request) => ({ id: (request.params as { id: string }).id, body: request.body ?? 'none' }));
  fastifyServer.get('/api/conflict', conflict);
  fastifyServer.get('/api/limited', limited);
  fastifyServer.get('/api/broken', broken);
  fastifyBase = await fastifyServer.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  expressServer?.closeAllConnections();
  expressServer?.close();
  await fastifyServer?.close();
});

interface Sent {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** What a client sees of an answer, less what differs between any two servers (Date, Connection). */
async function answerOf(base: string, sent: Sent) {
  const answer = await fetch(base + sent.path, { method: sent.method ?? 'GET', headers: { 'X-Request-Id': 'req-1', ...sent.headers }, body: sent.body });
  return {
    status: answer.status,
    contentType: answer.headers.get('content-type'),
    retryAfter: answer.headers.get('retry-after'),
    requestId: answer.headers.get('x-request-id'),
    body: Buffer.from(await answer.arrayBuffer()).toString('latin1'),
  };
}

const json = { 'Content-Type': 'application/json', 'X-Request-Id': 'req-1' };
const cases: [string, Sent, number, string][] = [
  ['malformed JSON', { method: 'POST', path: '/api/posts', headers: json, body: '{"title":' }, 400, ErrorCode.VALIDATION_FAILED],
  ['JSON that is not an object or an array', { method: 'POST', path: '/api/posts', headers: json, body: '"a title"' }, 400, ErrorCode.VALIDATION_FAILED],
  ['a body over the limit', { method: 'POST', path: '/api/posts', headers: json, body: JSON.stringify({ title: 'x'.repeat(JSON_BODY_LIMIT) }) }, 413, ErrorCode.PAYLOAD_TOO_LARGE],
  ['a body in another media type', { method: 'POST', path: '/api/posts', headers: { 'Content-Type': 'text/plain' }, body: 'a title' }, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
  ['a body without a content type', { method: 'POST', path: '/api/posts', body: Buffer.from('{"title":"a"}') }, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
  ['JSON in another charset', { method: 'POST', path: '/api/posts', headers: { 'Content-Type': 'application/json; charset=latin1' }, body: '{"title":"a"}' }, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
  ['a body that is not UTF-8', { method: 'POST', path: '/api/posts', headers: json, body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]) }, 400, ErrorCode.VALIDATION_FAILED],
  ['a body that fails the schema', { method: 'POST', path: '/api/posts', headers: json, body: JSON.stringify({ title: '', tags: ['a', 'b', 'c'] }) }, 400, ErrorCode.VALIDATION_FAILED],
  ['no body where one is required', { method: 'POST', path: '/api/posts', headers: json }, 400, ErrorCode.VALIDATION_FAILED],
  ['no body at all (a DELETE without Content-Length) where one is required', { method: 'DELETE', path: '/api/posts' }, 400, ErrorCode.VALIDATION_FAILED],
  ['a query that fails the schema', { path: '/api/posts?page=0' }, 400, ErrorCode.VALIDATION_FAILED],
  ['a query string that is not UTF-8', { path: '/api/posts?page=%FF' }, 400, ErrorCode.VALIDATION_FAILED],
  ['a domain refusal with details', { path: '/api/conflict' }, 409, ErrorCode.CONFLICT],
  ['a refusal with Retry-After', { path: '/api/limited' }, 429, ErrorCode.RATE_LIMITED],
  ['an unexpected error', { path: '/api/broken' }, 500, ErrorCode.INTERNAL],
  ['a body in an unknown encoding', { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'zip' }, body: '{"title":"a"}' }, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
  ['a body in x-gzip (body-parser does not read it)', { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'x-gzip' }, body: gzipSync('{"title":"a"}') }, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE],
  ['a gzip body that is not gzip', { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'gzip' }, body: '{"title":"a"}' }, 400, ErrorCode.VALIDATION_FAILED],
  ['a gzip body over the limit once decoded', { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'gzip' }, body: gzipSync(JSON.stringify({ title: 'x'.repeat(JSON_BODY_LIMIT) })) }, 413, ErrorCode.PAYLOAD_TOO_LARGE],
  ['an unknown endpoint', { method: 'POST', path: '/api/nothing-here', headers: json, body: '{}' }, 404, ErrorCode.NOT_FOUND],
];

describe('the Fastify server answers refusals as the Express app does', () => {
  it.each(cases)('%s', async (_case, sent, status, code) => {
    const [fromExpress, fromFastify] = await Promise.all([answerOf(expressBase, sent), answerOf(fastifyBase, sent)]);
    expect(fromExpress.status).toBe(status);
    expect(JSON.parse(fromExpress.body)).toMatchObject({ error: { code } });
    expect(fromFastify).toEqual(fromExpress);
  });

  it.each([
    ['a JSON object', '{"title":"Hello","tags":["a"]}', 'identity'],
    ['a JSON object after a byte order mark', '\ufeff{"title":"Hello"}', 'identity'],
    ['surrounding white space', ' \n{"title":"Hello"}\t', 'identity'],
    ['a gzip body', gzipSync('{"title":"Hello"}'), 'gzip'],
    ['a deflate body', deflateSync('{"title":"Hello"}'), 'deflate'],
    ['a brotli body', brotliCompressSync('{"title":"Hello"}'), 'br'],
  ])('reads %s as Express does', async (_case, body, encoding) => {
    const sent = { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': encoding }, body };
    const [fromExpress, fromFastify] = await Promise.all([answerOf(expressBase, sent), answerOf(fastifyBase, sent)]);
    expect(fromExpress.status).toBe(200);
    expect(fromFastify).toEqual(fromExpress);
  });

  it('gives a route that takes no body none when none is sent (a DELETE without Content-Length), as Express does', async () => {
    const sent = { method: 'DELETE', path: '/api/posts/p-1' };
    const [fromExpress, fromFastify] = await Promise.all([answerOf(expressBase, sent), answerOf(fastifyBase, sent)]);
    expect(fromExpress).toMatchObject({ status: 200, body: '{"id":"p-1","body":"none"}' });
    expect(fromFastify).toEqual(fromExpress);
  });

  it.each([
    ['a trailing slash', '/api/posts/?page=2'],
    ['another case', '/API/Posts?page=2'],
    ['a parameter in another case', '/API/posts/AbC'],
  ])('routes a path with %s as Express does', async (_case, path) => {
    const [fromExpress, fromFastify] = await Promise.all([answerOf(expressBase, { path }), answerOf(fastifyBase, { path })]);
    expect(fromExpress.status).toBe(200);
    expect(fromFastify).toEqual(fromExpress);
  });

  it('keeps a sane X-Request-Id and replaces any other with a new UUID', async () => {
    for (const base of [expressBase, fastifyBase]) {
      expect((await answerOf(base, { path: '/api/posts', headers: { 'X-Request-Id': 'req-42' } })).requestId).toBe('req-42');
      expect((await answerOf(base, { path: '/api/posts', headers: { 'X-Request-Id': 'not a sane id!' } })).requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers headers too large for the HTTP parser with the same bytes', async () => {
    const raw = async (base: string) => {
      const { port } = new URL(base);
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(`GET /api/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('latin1');
    };
    const [fromExpress, fromFastify] = await Promise.all([raw(expressBase), raw(fastifyBase)]);
    expect(fromExpress).toMatch(/^HTTP\/1.1 431 /);
    expect(fromFastify).toBe(fromExpress);
  });
});

describe('the Fastify server’s log', () => {
  const settle = (lines: Line[], message: string) => expect.poll(() => lines.filter((line) => line.msg === message).length).toBeGreaterThan(0);
  const shape = (line: Line | undefined) => ({ ...line, time: typeof line?.time, pid: typeof line?.pid, hostname: typeof line?.hostname, responseTime: typeof line?.responseTime });

  it('writes the same access log line, with the request id and correlation id', async () => {
    expressLines.length = 0;
    fastifyLines.length = 0;
    const sent = { path: '/api/posts?page=2', headers: { 'X-Request-Id': 'req-42', 'X-Correlation-Id': 'corr-7' } };
    await Promise.all([answerOf(expressBase, sent), answerOf(fastifyBase, sent)]);
    await settle(expressLines, 'request completed');
    await settle(fastifyLines, 'request completed');
    const line = (lines: Line[]) => shape(lines.find((l) => l.msg === 'request completed'));
    expect(line(fastifyLines)).toEqual(line(expressLines));
    expect(line(fastifyLines)).toMatchObject({ level: 30, req: { id: 'req-42', method: 'GET', url: '/api/posts?page=2' }, res: { statusCode: 200 }, correlationId: 'corr-7' });
  });

  it('logs an unexpected error with the request’s id, and its answer as an error', async () => {
    expressLines.length = 0;
    fastifyLines.length = 0;
    const sent = { path: '/api/broken', headers: { 'X-Request-Id': 'req-500' } };
    await Promise.all([answerOf(expressBase, sent), answerOf(fastifyBase, sent)]);
    await settle(expressLines, 'request completed');
    await settle(fastifyLines, 'request completed');
    const error = (lines: Line[]) => lines.find((l) => l.msg === 'unhandled error');
    const withoutStack = (line: Line | undefined) => ({ ...shape(line), err: { ...(line?.err as Line), stack: typeof (line?.err as Line | undefined)?.stack } });
    expect(withoutStack(error(fastifyLines))).toEqual(withoutStack(error(expressLines)));
    expect(error(fastifyLines)).toMatchObject({ level: 50, req: { id: 'req-500', method: 'GET', url: '/api/broken' }, err: { message: 'a secret the client must not see' } });
    const completed = (lines: Line[]) => shape(lines.find((l) => l.msg === 'request completed'));
    expect(completed(fastifyLines)).toEqual(completed(expressLines));
    // nothing more: Fastify logs no error of its own beside the handler's
    expect(fastifyLines.map((l) => l.msg)).toEqual(['unhandled error', 'request completed']);
    expect(expressLines.map((l) => l.msg)).toEqual(['unhandled error', 'request completed']);
  });
});

describe('a server whose API is one context among others (apiInput: false, as the gateway)', () => {
  let server: HttpServer;
  let base: string;
  beforeAll(async () => {
    server = createHttpServer({ logger: logInto([]), apiInput: false });
    // what another handler reads itself (the identity realm's forms): nothing parsed before it
    server.post('/form', async (request) => ({ parsed: request.body ?? null }));
    server.get('/page', async () => ({ page: true }));
    await server.register(
      async (api) => {
        apiInput(api);
        api.post('/posts', { schema: { body: Post } }, async (request) => request.body);
        api.get('/posts', { schema: { querystring: Page } }, async (request) => request.query);
      },
      { prefix: '/api' },
    );
    base = await server.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server?.close());

  it('reads the API’s input in the API’s context as the whole server does', async () => {
    for (const [sent, status] of [
      [cases.find(([name]) => name === 'malformed JSON')![1], 400],
      [cases.find(([name]) => name === 'a body in another media type')![1], 415],
      [cases.find(([name]) => name === 'a query string that is not UTF-8')![1], 400],
      [{ method: 'POST', path: '/api/posts', headers: json, body: '{"title":"Hello"}' }, 200],
    ] as const) {
      const [whole, context] = await Promise.all([answerOf(fastifyBase, sent), answerOf(base, sent)]);
      expect(context.status, sent.path).toBe(status);
      expect(context, sent.path).toEqual(whole);
    }
  });

  it('reads no body and checks no query string outside it', async () => {
    const form = await fetch(`${base}/form`, { method: 'POST', body: new URLSearchParams({ username: 'alice' }) });
    expect([form.status, await form.json()]).toEqual([200, { parsed: null }]);
    const broken = await fetch(`${base}/form`, { method: 'POST', headers: json, body: '{"title":' });
    expect([broken.status, await broken.json()]).toEqual([200, { parsed: null }]);
    const page = await fetch(`${base}/page?q=%FF`);
    expect([page.status, await page.json()]).toEqual([200, { page: true }]);
  });
});
