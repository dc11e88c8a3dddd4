import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig, logSettings } from './config.ts';
import { healthPlugin } from './health.ts';
import { createHttpServer, type HttpServer } from './http-server.ts';
import { createLogger, LazyChildLogger, logFormatFor, markStreamingAnswer } from './logger.ts';
import { anyNumber } from './testing/index.ts';

/** The access log over a real HTTP server: what an operator reads for each request. */
const servers: HttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    // a request still running (/never) would hold close() until the client's socket times out
    server.server.closeAllConnections();
    await server.close();
  }
});

async function serve(level: string) {
  const lines: Record<string, unknown>[] = [];
  let waiting = 0;
  const logger = createLogger('request-log-test', level, {
    format: 'json',
    destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }),
  });
  const server = createHttpServer({ logger });
  await server.register(
    (api, _options, done) => {
      api.get('/posts', (request) => {
        request.log.info('inside');
        return { ok: true };
      });
      api.get('/missing', async (_request, reply) => reply.code(404).send({}));
      api.get('/never', () => ((waiting += 1), new Promise(() => {})));
      api.get('/busy', async (_request, reply) => reply.code(503).header('Retry-After', '1').send({}));
      api.get('/broken', async (_request, reply) => reply.code(500).send({}));
      api.get('/stream', (_request, reply) => {
        waiting += 1;
        reply.hijack();
        markStreamingAnswer(reply.raw);
        reply.raw.writeHead(200, { 'Content-Type': 'text/event-stream' }).write(': open\n\n');
      });
      done();
    },
    { prefix: '/api' },
  );
  let ready = true;
  await server.register(healthPlugin({ database: () => Promise.resolve({ ok: ready }) }));
  servers.push(server);
  const base = await server.listen({ port: 0, host: '127.0.0.1' });
  // the server's own line saying where it listens is not a request's
  lines.length = 0;
  return { lines, base, waiting: () => waiting, setReady: (value: boolean) => void (ready = value) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the request log', () => {
  it('gives each request an id (the caller’s when sane) and logs its answer with the URL as it came', async () => {
    const { lines, base } = await serve('info');
    const answer = await fetch(`${base}/api/posts?page=2`, { headers: { 'X-Request-Id': 'req-42', 'X-Correlation-Id': 'corr-7' } });
    expect(answer.headers.get('X-Request-Id')).toBe('req-42');
    await answer.arrayBuffer();
    const generated = await fetch(`${base}/api/posts`, { headers: { 'X-Request-Id': 'not a sane id!' } });
    expect(generated.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    await generated.arrayBuffer();
    expect(lines.find((l) => l.msg === 'inside')).toMatchObject({ req: { id: 'req-42', method: 'GET' } });
    await expect
      .poll(() => lines.find((l) => l.msg === 'request completed'))
      .toMatchObject({
        level: 30,
        req: { id: 'req-42', method: 'GET', url: '/api/posts?page=2' },
        res: { statusCode: 200 },
        route: '/api/posts',
        correlationId: 'corr-7',
        responseTime: anyNumber,
      });
  });

  it('warns of a 4xx, and of a client that left before its answer', async () => {
    const { lines, base, waiting } = await serve('info');
    await (await fetch(`${base}/api/missing`)).arrayBuffer();
    const leaving = new AbortController();
    const never = fetch(`${base}/api/never`, { signal: leaving.signal }).catch(() => null);
    await expect.poll(waiting).toBe(1);
    leaving.abort();
    await never;
    await expect
      .poll(() => lines.filter((l) => l.msg !== 'inside').map((l) => [l.level, l.msg, (l.req as { url: string }).url]))
      .toEqual([
        [40, 'request completed', '/api/missing'],
        [40, 'request aborted', '/api/never'],
      ]);
  });

  it('logs the process’s own calls of its routes (inject) at debug, never as an abort', async () => {
    const { lines } = await serve('debug');
    await servers.at(-1)!.inject({ method: 'GET', url: '/api/missing' });
    await expect.poll(() => lines.map((l) => [l.level, l.msg, (l.req as { url: string }).url])).toEqual([[20, 'request completed', '/api/missing']]);
  });

  it('warns of a 503 with Retry-After (a search refused as BUSY, a read timed out), and errs only on other 5xx', async () => {
    const { lines, base } = await serve('info');
    await (await fetch(`${base}/api/busy`)).arrayBuffer();
    await (await fetch(`${base}/api/broken`)).arrayBuffer();
    for (let waited = 0; lines.length < 2 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.map((l) => [l.level, (l.res as { statusCode: number }).statusCode])).toEqual([
      [40, 503],
      [50, 500],
    ]);
  });

  it('logs the end of a stream its client left at info, never as an abort, and never writes a stream ticket', async () => {
    const { lines, base, waiting } = await serve('info');
    const leaving = new AbortController();
    const response = await fetch(`${base}/api/stream?topics=me&ticket=secret.123.sig&x=1`, { signal: leaving.signal });
    await expect.poll(waiting).toBe(1);
    leaving.abort();
    await response.text().catch(() => null);
    await expect
      .poll(() => lines.map((l) => [l.level, l.msg, (l.req as { url: string }).url]))
      .toEqual([[30, 'stream ended', '/api/stream?topics=me&ticket=…&x=1']]);
  });

  it('logs the answers to health probes (/healthz, /readyz, ready or not) at debug: a gateway asks every second', async () => {
    const { lines, base, setReady } = await serve('debug');
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    await (await fetch(`${base}/readyz`)).arrayBuffer();
    setReady(false);
    await (await fetch(`${base}/readyz`)).arrayBuffer();
    await expect
      .poll(() =>
        lines.filter((l) => l.msg === 'request completed').map((l) => [l.level, (l.req as { url: string }).url, (l.res as { statusCode: number }).statusCode]),
      )
      .toEqual([
        [20, '/healthz', 200],
        [20, '/readyz', 200],
        [20, '/readyz', 503],
      ]);
    const quiet = await serve('info');
    quiet.setReady(false);
    await (await fetch(`${quiet.base}/readyz`)).arrayBuffer();
    await (await fetch(`${quiet.base}/api/posts`)).arrayBuffer();
    await expect.poll(() => quiet.lines.map((l) => (l.req as { url: string } | undefined)?.url)).toContain('/api/posts');
    expect(quiet.lines.filter((l) => (l.req as { url: string } | undefined)?.url === '/readyz')).toEqual([]);
  });

  it('writes nothing for answered requests below its level', async () => {
    const { lines, base } = await serve('error');
    await (await fetch(`${base}/api/posts`)).arrayBuffer();
    await (await fetch(`${base}/api/missing`)).arrayBuffer();
    await settle();
    expect(lines).toEqual([]);
  });
});

describe("a request's own logger", () => {
  it('is made from its parent only when a line at an enabled level is written through it, with the request bound', () => {
    const lines: Record<string, unknown>[] = [];
    const parent = createLogger('lazy-test', 'warn', {
      format: 'json',
      destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }),
    });
    let made = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof child>) => (made++, child(...args))) as typeof parent.child;
    const log = new LazyChildLogger(parent, () => ({ req: { id: 'r-1' } }));
    log.info('below the level');
    expect(made).toBe(0);
    expect(log.level).toBe('warn');
    log.error({ code: 7 }, 'something broke');
    log.warn('again');
    expect(made).toBe(1);
    expect(lines.map(({ req, msg, code }) => ({ req, msg, code }))).toEqual([
      { req: { id: 'r-1' }, msg: 'something broke', code: 7 },
      { req: { id: 'r-1' }, msg: 'again', code: undefined },
    ]);
  });
});

describe('#28.17 the log format', () => {
  const written = () => {
    const chunks: string[] = [];
    return { chunks, destination: new Writable({ write: (chunk, _encoding, done) => (chunks.push(String(chunk)), done()) }) };
  };

  it('#28.17 logs are pretty on a terminal and JSON elsewhere, unless LOG_FORMAT says which', () => {
    expect(logFormatFor(undefined, true)).toBe('pretty');
    expect(logFormatFor(undefined, false)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');

    const settings = z.object(logSettings);
    expect(loadConfig(settings, { LOG_FORMAT: '' })).toEqual({ LOG_LEVEL: 'info' });
    expect(loadConfig(settings, { LOG_FORMAT: 'json', LOG_LEVEL: 'warn' })).toEqual({ LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
    expect(() => loadConfig(settings, { LOG_FORMAT: 'xml' })).toThrow(ConfigError);

    // pretty: one line a person reads (time, level, service, message), the other fields after it
    const pretty = written();
    const logger = createLogger('forum', 'info', { format: 'pretty', destination: pretty.destination });
    logger.child({ component: 'identity-realm' }).warn({ mailbox: 'http://localhost:3000/realms/forum/mailbox' }, 'SMTP_URL is not set');
    logger.info(
      { req: { id: 'r1', method: 'GET', url: '/api/posts?page=2' }, res: { statusCode: 200 }, responseTime: 3, correlationId: 'r1' },
      'request completed',
    );
    logger.error({ err: new Error('boom') }, 'failed');
    const lines = pretty.chunks.join('').split('\n');
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}forum\/identity-realm: SMTP_URL is not set \{"mailbox":"http:\/\/localhost:3000\/realms\/forum\/mailbox"\}$/,
    );
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d INFO {2}forum: GET \/api\/posts\?page=2 → 200 in 3 ms$/);
    expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d ERROR forum: failed\s*$/);
    expect(lines.slice(3).join('\n')).toContain('Error: boom');
    expect(pretty.chunks.join('')).not.toContain('{"level"');

    // JSON: what a log collector parses
    const json = written();
    createLogger('forum', 'info', { format: 'json', destination: json.destination }).info({ events: 15 }, 'demo data written');
    expect(JSON.parse(json.chunks.join(''))).toMatchObject({ level: 30, service: 'forum', events: 15, msg: 'demo data written' });
  });
});
