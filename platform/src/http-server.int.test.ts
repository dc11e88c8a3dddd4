import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ErrorCode, NoBody } from '@forum/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConflictError, RateLimitedError } from './errors.ts';
import { JSON_BODY_LIMIT } from './http.ts';
import { apiInput, createHttpServer, type HttpServer } from './http-server.ts';
import { createLogger } from './logger.ts';
import { anyNumber, matching } from './testing/index.ts';

/**
 * The server's answers, byte for byte, over real HTTP: status, Content-Type, Retry-After,
 * X-Request-Id and the body's text. The expected values are the API's answers as the services
 * gave them before they moved onto this server (the Express app's), written out literally.
 */
const Post = z.object({ title: z.string().min(1), tags: z.array(z.string()).max(2).optional() });
const Page = z.object({ page: z.coerce.number().int().min(1).optional() });

type Line = Record<string, unknown>;
const lines: Line[] = [];
let server: HttpServer;
let base: string;

function conflict(): never {
  throw new ConflictError('This name is taken', ErrorCode.CONFLICT, { name: ['taken'] });
}
function limited(): never {
  throw new RateLimitedError('Slow down', 7);
}
function broken(): never {
  throw new Error('a secret the client must not see');
}
/** pg's error of a session the server ended (a killed or restarting PostgreSQL), as knex words it. */
function databaseGone(): never {
  throw Object.assign(new Error('select 1 - terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
}

/** pg's error of a write PostgreSQL refused because its disk is full. */
function diskFull(): never {
  throw Object.assign(new Error('could not extend file "base/16384/16418": No space left on device'), { code: '53100', severity: 'ERROR' });
}

beforeAll(async () => {
  const destination = new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Line), done()) });
  server = createHttpServer({ logger: createLogger('http-server-test', 'info', { format: 'json', destination }) });
  server.post('/api/posts', { schema: { body: Post } }, (request) => request.body);
  server.get('/api/posts', { schema: { querystring: Page } }, (request) => request.query);
  server.get('/api/posts/:id', { schema: { params: z.object({ id: z.string() }) } }, (request) => ({ id: request.params.id }));
  server.delete('/api/posts', { schema: { body: Post } }, (request) => request.body);
  server.delete('/api/posts/:id', { schema: { params: z.object({ id: z.string() }), body: NoBody } }, (request) => ({
    id: request.params.id,
    body: request.body ?? 'none',
  }));
  server.get('/api/conflict', conflict);
  server.get('/api/limited', limited);
  server.get('/api/broken', broken);
  server.get('/api/database-gone', databaseGone);
  server.get('/api/disk-full', diskFull);
  base = await server.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
});

interface Sent {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** What a client sees of an answer (from the server at `at`), less what changes from one answer to the next (Date, Connection). */
async function answerOf(sent: Sent, at = base) {
  const answer = await fetch(at + sent.path, { method: sent.method ?? 'GET', headers: { 'X-Request-Id': 'req-1', ...sent.headers }, body: sent.body });
  return {
    status: answer.status,
    contentType: answer.headers.get('content-type'),
    retryAfter: answer.headers.get('retry-after'),
    requestId: answer.headers.get('x-request-id'),
    body: Buffer.from(await answer.arrayBuffer()).toString('latin1'),
  };
}

/** The answer every case expects: JSON in UTF-8, the request's id sent back, no Retry-After unless named. */
const answered = (status: number, body: string, retryAfter: string | null = null) => ({
  status,
  contentType: 'application/json; charset=utf-8',
  retryAfter,
  requestId: 'req-1',
  body,
});

const NOT_JSON = '{"error":{"code":"VALIDATION_FAILED","message":"The body is not valid JSON"}}';
const TOO_LARGE = '{"error":{"code":"PAYLOAD_TOO_LARGE","message":"The body is too large"}}';
const NOT_A_JSON_BODY = '{"error":{"code":"UNSUPPORTED_MEDIA_TYPE","message":"Send the body as JSON in UTF-8 (Content-Type: application/json)"}}';

const json = { 'Content-Type': 'application/json' };
const oversized = JSON.stringify({ title: 'x'.repeat(JSON_BODY_LIMIT) });
const refusals: [string, Sent, ReturnType<typeof answered>][] = [
  ['malformed JSON', { method: 'POST', path: '/api/posts', headers: json, body: '{"title":' }, answered(400, NOT_JSON)],
  ['JSON that is not an object or an array', { method: 'POST', path: '/api/posts', headers: json, body: '"a title"' }, answered(400, NOT_JSON)],
  ['a body over the limit', { method: 'POST', path: '/api/posts', headers: json, body: oversized }, answered(413, TOO_LARGE)],
  [
    'a body in another media type',
    { method: 'POST', path: '/api/posts', headers: { 'Content-Type': 'text/plain' }, body: 'a title' },
    answered(415, NOT_A_JSON_BODY),
  ],
  ['a body without a content type', { method: 'POST', path: '/api/posts', body: Buffer.from('{"title":"a"}') }, answered(415, NOT_A_JSON_BODY)],
  [
    'JSON in another charset',
    { method: 'POST', path: '/api/posts', headers: { 'Content-Type': 'application/json; charset=latin1' }, body: '{"title":"a"}' },
    answered(415, NOT_A_JSON_BODY),
  ],
  [
    'a body that is not UTF-8',
    { method: 'POST', path: '/api/posts', headers: json, body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]) },
    answered(400, '{"error":{"code":"VALIDATION_FAILED","message":"The body is not valid UTF-8","details":{"_":["The body is not valid UTF-8"]}}}'),
  ],
  [
    'a body that fails the schema',
    { method: 'POST', path: '/api/posts', headers: json, body: JSON.stringify({ title: '', tags: ['a', 'b', 'c'] }) },
    answered(
      400,
      '{"error":{"code":"VALIDATION_FAILED","message":"The request is not valid","details":{"title":["Too small: expected string to have >=1 characters"],"tags":["Too big: expected array to have <=2 items"]}}}',
    ),
  ],
  [
    'no body where one is required',
    { method: 'POST', path: '/api/posts', headers: json },
    answered(
      400,
      '{"error":{"code":"VALIDATION_FAILED","message":"The request is not valid","details":{"title":["Invalid input: expected string, received undefined"]}}}',
    ),
  ],
  [
    'no body at all (a DELETE without Content-Length) where one is required',
    { method: 'DELETE', path: '/api/posts' },
    answered(
      400,
      '{"error":{"code":"VALIDATION_FAILED","message":"The request is not valid","details":{"_":["Invalid input: expected object, received undefined"]}}}',
    ),
  ],
  [
    'a query that fails the schema',
    { path: '/api/posts?page=0' },
    answered(400, '{"error":{"code":"VALIDATION_FAILED","message":"The request is not valid","details":{"page":["Too small: expected number to be >=1"]}}}'),
  ],
  [
    'a query string that is not UTF-8',
    { path: '/api/posts?page=%FF' },
    answered(400, '{"error":{"code":"VALIDATION_FAILED","message":"The request is not valid","details":{"_":["The query string is not valid UTF-8"]}}}'),
  ],
  [
    'a domain refusal with details',
    { path: '/api/conflict' },
    answered(409, '{"error":{"code":"CONFLICT","message":"This name is taken","details":{"name":["taken"]}}}'),
  ],
  [
    'a refusal with Retry-After',
    { path: '/api/limited' },
    answered(429, '{"error":{"code":"RATE_LIMITED","message":"Slow down","details":{"retryAfterSeconds":7}}}', '7'),
  ],
  [
    'an unexpected error, without what it says',
    { path: '/api/broken' },
    answered(500, '{"error":{"code":"INTERNAL","message":"Something went wrong on our side"}}'),
  ],
  [
    'a body in an unknown encoding',
    { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'zip' }, body: '{"title":"a"}' },
    answered(415, NOT_A_JSON_BODY),
  ],
  [
    'a body in x-gzip (not an encoding the API reads)',
    { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'x-gzip' }, body: gzipSync('{"title":"a"}') },
    answered(415, NOT_A_JSON_BODY),
  ],
  [
    'a gzip body that is not gzip',
    { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'gzip' }, body: '{"title":"a"}' },
    answered(400, '{"error":{"code":"VALIDATION_FAILED","message":"The request could not be read"}}'),
  ],
  [
    'a gzip body over the limit once decoded',
    { method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': 'gzip' }, body: gzipSync(oversized) },
    answered(413, TOO_LARGE),
  ],
  [
    'an unknown endpoint',
    { method: 'POST', path: '/api/nothing-here', headers: json, body: '{}' },
    answered(404, '{"error":{"code":"NOT_FOUND","message":"No such endpoint"}}'),
  ],
];

describe('the server’s refusals', () => {
  it.each(refusals)('%s', async (_case, sent, expected) => {
    expect(await answerOf(sent)).toEqual(expected);
  });

  it('answers headers too large for the HTTP parser with the error body, and closes the connection', async () => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.write(`GET /api/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('latin1')).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 84\r\nConnection: close\r\n\r\n' +
        '{"error":{"code":"HEADERS_TOO_LARGE","message":"The request headers are too large"}}',
    );
  });
});

describe('the server’s reading of requests', () => {
  it.each([
    ['a JSON object', '{"title":"Hello","tags":["a"]}', 'identity', '{"title":"Hello","tags":["a"]}'],
    ['a JSON object after a byte order mark', '\ufeff{"title":"Hello"}', 'identity', '{"title":"Hello"}'],
    ['surrounding white space', ' \n{"title":"Hello"}\t', 'identity', '{"title":"Hello"}'],
    ['a gzip body', gzipSync('{"title":"Hello"}'), 'gzip', '{"title":"Hello"}'],
    ['a deflate body', deflateSync('{"title":"Hello"}'), 'deflate', '{"title":"Hello"}'],
    ['a brotli body', brotliCompressSync('{"title":"Hello"}'), 'br', '{"title":"Hello"}'],
  ])('reads %s', async (_case, body, encoding, read) => {
    expect(await answerOf({ method: 'POST', path: '/api/posts', headers: { ...json, 'Content-Encoding': encoding }, body })).toEqual(answered(200, read));
  });

  it('gives a route that takes no body none when none is sent (a DELETE without Content-Length)', async () => {
    expect(await answerOf({ method: 'DELETE', path: '/api/posts/p-1' })).toEqual(answered(200, '{"id":"p-1","body":"none"}'));
  });

  it.each([
    ['a trailing slash', '/api/posts/?page=2', '{"page":2}'],
    ['another case', '/API/Posts?page=2', '{"page":2}'],
    ['a parameter in another case, kept as sent', '/API/posts/AbC', '{"id":"AbC"}'],
  ])('routes a path with %s', async (_case, path, read) => {
    expect(await answerOf({ path })).toEqual(answered(200, read));
  });

  it('keeps a sane X-Request-Id and replaces any other with a new UUID', async () => {
    expect((await answerOf({ path: '/api/posts', headers: { 'X-Request-Id': 'req-42' } })).requestId).toBe('req-42');
    expect((await answerOf({ path: '/api/posts', headers: { 'X-Request-Id': 'not a sane id!' } })).requestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect((await answerOf({ path: '/api/posts', headers: { 'X-Request-Id': 'x'.repeat(129) } })).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** The log's lines of the request with this id (lines of other requests may still come in). */
const linesOf = (id: string) => lines.filter((line) => (line.req as Line | undefined)?.id === id);
const time = matching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('the server’s log', () => {
  it('writes the access log line: the request’s id, method and URL as sent, its route’s pattern, its status, time and correlation id', async () => {
    await answerOf({ path: '/api/posts?page=2', headers: { 'X-Request-Id': 'req-access', 'X-Correlation-Id': 'corr-7' } });
    await expect
      .poll(() => linesOf('req-access'))
      .toEqual([
        {
          level: 30,
          time,
          service: 'http-server-test',
          req: { id: 'req-access', method: 'GET', url: '/api/posts?page=2' },
          res: { statusCode: 200 },
          route: '/api/posts',
          responseTime: anyNumber,
          correlationId: 'corr-7',
          msg: 'request completed',
        },
      ]);
  });

  it('logs an unexpected error with the request’s id, then its answer as an error, and nothing else', async () => {
    await answerOf({ path: '/api/broken', headers: { 'X-Request-Id': 'req-500' } });
    const req = { id: 'req-500', method: 'GET', url: '/api/broken' };
    await expect
      .poll(() => linesOf('req-500'))
      .toEqual([
        {
          level: 50,
          time,
          service: 'http-server-test',
          req,
          err: { type: 'Error', message: 'a secret the client must not see', stack: matching(/^Error: a secret the client must not see\n {4}at /) },
          msg: 'unhandled error',
        },
        {
          level: 50,
          time,
          service: 'http-server-test',
          req,
          res: { statusCode: 500 },
          route: '/api/broken',
          responseTime: anyNumber,
          correlationId: 'req-500',
          msg: 'request completed',
        },
      ]);
  });
});

describe('a database out of reach', () => {
  const UNAVAILABLE = '{"error":{"code":"UNAVAILABLE","message":"The forum cannot reach its database just now. Please try again in a moment."}}';

  it('answers 503 UNAVAILABLE with Retry-After: 1, and says so in the log once however many requests meet it', async () => {
    const ids = ['req-gone-1', 'req-gone-2', 'req-gone-3'];
    for (const id of ids)
      expect(await answerOf({ path: '/api/database-gone', headers: { 'X-Request-Id': id } })).toEqual({ ...answered(503, UNAVAILABLE, '1'), requestId: id });
    await expect.poll(() => ids.map((id) => linesOf(id).length)).toEqual([2, 1, 1]);
    expect(linesOf('req-gone-1')[0]).toEqual({
      level: 40,
      time,
      service: 'http-server-test',
      req: { id: 'req-gone-1', method: 'GET', url: '/api/database-gone' },
      cause: { code: '57P01', message: 'select 1 - terminating connection due to administrator command' },
      msg: 'the database is unavailable: requests that need it answer 503 until it is back',
    });
    expect(
      ids
        .flatMap(linesOf)
        .filter((line) => line.msg === 'request completed')
        .map((line) => [line.level, line.res]),
    ).toEqual(ids.map(() => [40, { statusCode: 503 }]));
  });

  it('on a full disk, answers the same 503, and says at level error that the disk is full, once however many requests meet it', async () => {
    const ids = ['req-full-1', 'req-full-2', 'req-full-3'];
    for (const id of ids)
      expect(await answerOf({ path: '/api/disk-full', headers: { 'X-Request-Id': id } })).toEqual({
        ...answered(503, UNAVAILABLE, '1'),
        requestId: id,
      });
    await expect.poll(() => ids.map((id) => linesOf(id).length)).toEqual([2, 1, 1]);
    expect(linesOf('req-full-1')[0]).toEqual({
      level: 50,
      time,
      service: 'http-server-test',
      req: { id: 'req-full-1', method: 'GET', url: '/api/disk-full' },
      cause: { code: '53100', message: 'could not extend file "base/16384/16418": No space left on device' },
      msg: "the database's disk is full (No space left on device): writes answer 503 until space is freed on PostgreSQL's volume",
    });
  });
});

describe('a server whose API is one context among others (apiInput: false, as the gateway)', () => {
  let gateway: HttpServer;
  let gatewayBase: string;
  beforeAll(async () => {
    gateway = createHttpServer({ logger: createLogger('http-server-test', 'silent'), apiInput: false });
    // what another handler reads itself (the identity realm's forms): nothing parsed before it
    gateway.post('/form', (request) => ({ parsed: request.body ?? null }));
    gateway.get('/page', () => ({ page: true }));
    await gateway.register(
      (api, _options, done) => {
        apiInput(api);
        api.post('/posts', { schema: { body: Post } }, (request) => request.body);
        api.get('/posts', { schema: { querystring: Page } }, (request) => request.query);
        done();
      },
      { prefix: '/api' },
    );
    gatewayBase = await gateway.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => gateway?.close());

  const refusal = (name: string) => refusals.find(([named]) => named === name)!;
  it.each([refusal('malformed JSON'), refusal('a body in another media type'), refusal('a query string that is not UTF-8')])(
    'reads the API’s input in the API’s context: %s',
    async (_case, sent, expected) => {
      expect(await answerOf(sent, gatewayBase)).toEqual(expected);
    },
  );

  it('reads a good body in the API’s context', async () => {
    expect(await answerOf({ method: 'POST', path: '/api/posts', headers: json, body: '{"title":"Hello"}' }, gatewayBase)).toEqual(
      answered(200, '{"title":"Hello"}'),
    );
  });

  it('reads no body and checks no query string outside it', async () => {
    const form = await fetch(`${gatewayBase}/form`, { method: 'POST', body: new URLSearchParams({ username: 'alice' }) });
    expect([form.status, await form.json()]).toEqual([200, { parsed: null }]);
    const broken = await fetch(`${gatewayBase}/form`, { method: 'POST', headers: json, body: '{"title":' });
    expect([broken.status, await broken.json()]).toEqual([200, { parsed: null }]);
    const page = await fetch(`${gatewayBase}/page?q=%FF`);
    expect([page.status, await page.json()]).toEqual([200, { page: true }]);
  });
});

describe('a stop', () => {
  /** A raw keep-alive connection sending `GET path`; `answer` is all it received once the server closed it. */
  function keepAliveRequest(port: number, path: string) {
    const socket = connect(port, '127.0.0.1');
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
    const chunks: Buffer[] = [];
    const answer = (async () => {
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('latin1');
    })();
    return { answer };
  }

  it('answers a request in flight with Connection: close, so the stop ends once it is answered, not when the client lets go', async () => {
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const stopping = createHttpServer({ logger: createLogger('http-server-test', 'silent') });
    let arrived = false;
    stopping.get('/slow', async () => ((arrived = true), await answered, { done: true }));
    // answered once the stop has begun
    stopping.addHook('preClose', (done) => (release(), done()));
    const port = Number(new URL(await stopping.listen({ port: 0, host: '127.0.0.1' })).port);
    const client = keepAliveRequest(port, '/slow');
    await expect.poll(() => arrived).toBe(true);
    const stopped = stopping.close();
    const answer = await client.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer.endsWith('{"done":true}')).toBe(true);
    await stopped;
  });

  it('ends within its grace when a request is never answered, cutting that connection', async () => {
    const stopping = createHttpServer({ logger: createLogger('http-server-test', 'silent'), closeGraceMs: 300 });
    let arrived = false;
    stopping.get('/never', () => ((arrived = true), new Promise(() => {})));
    const port = Number(new URL(await stopping.listen({ port: 0, host: '127.0.0.1' })).port);
    const client = keepAliveRequest(port, '/never');
    await expect.poll(() => arrived).toBe(true);
    await stopping.close();
    expect(await client.answer).toBe('');
  });
});
