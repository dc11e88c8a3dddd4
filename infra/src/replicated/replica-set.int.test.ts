import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { createHttpServer, createLogger, type HttpServer } from '@forum/platform';
import { waitFor } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiProxy } from './api-proxy.ts';
import { HEALTH_DEADLINE_MS, HEALTH_INTERVAL_MS, ReplicaSet, UPSTREAM_HEADERS_TIMEOUT_MS } from './replica-set.ts';

/**
 * The gateway's replica sets and their health checks, against plain HTTP servers standing in for
 * the replicas: one that accepts connections and stops answering (a process stopped with SIGSTOP,
 * an event loop that hangs), one whose /readyz says it is not ready, one route that never answers.
 * Real sockets and the set's real intervals and deadlines; nothing of the set is mocked.
 */
/** `api hangs`: its /readyz answers 200, its API never answers (a route stuck on something of its own). */
type Mode = 'ready' | 'not ready' | 'hung' | 'api hangs';

interface StandIn {
  readonly name: string;
  readonly url: string;
  mode: Mode;
  /** What it was asked, with when: the API's requests (not its /readyz). */
  readonly asked: { line: string; at: number }[];
  /** When each /readyz came. */
  readonly probes: number[];
  /** /readyz requests it holds unanswered now, and the most it held at once. */
  probesOpen: number;
  mostProbesOpen: number;
  /** How long its /readyz takes to answer (a replica slow to say it is ready). */
  probeDelayMs: number;
}

const servers: Server[] = [];
const sets: ReplicaSet[] = [];
let gateway: HttpServer;
let base: string;
/** The gateway's log lines (JSON), as an operator reads them. */
const lines: { level: number; msg: string; replicaSet?: string; replica?: string; why?: string }[] = [];
const logger = createLogger('replica-set-test', 'info', {
  format: 'json',
  destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as (typeof lines)[number]), done()) }),
});

async function standIn(name: string): Promise<StandIn> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const replica: StandIn = {
    name,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    mode: 'ready',
    asked: [],
    probes: [],
    probesOpen: 0,
    mostProbesOpen: 0,
    probeDelayMs: 0,
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const probe = req.url === '/readyz';
    if (probe) {
      replica.probes.push(Date.now());
      replica.probesOpen += 1;
      replica.mostProbesOpen = Math.max(replica.mostProbesOpen, replica.probesOpen);
      res.once('close', () => (replica.probesOpen -= 1));
    } else replica.asked.push({ line: `${req.method} ${req.url}`, at: Date.now() });
    // accepted, read, never answered
    if (replica.mode === 'hung' || (replica.mode === 'api hangs' && !probe)) return;
    if (probe) {
      const answer = () => res.writeHead(replica.mode === 'not ready' ? 503 : 200, { 'content-type': 'application/json' }).end('{}');
      return void (replica.probeDelayMs > 0 ? setTimeout(answer, replica.probeDelayMs) : answer());
    }
    // a change stream: open until its client leaves
    if (req.url === '/api/stream') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`: ${name}\n\n`);
    req.resume();
    req.on('end', () => res.writeHead(req.method === 'GET' ? 200 : 201, { 'content-type': 'application/json' }).end(JSON.stringify({ from: name })));
  });
  return replica;
}

let a: StandIn;
let b: StandIn;
let c: StandIn;
let stuck: StandIn;
let slowToAnswer: StandIn;
let query: ReplicaSet;
let command: ReplicaSet;

beforeAll(async () => {
  [a, b, c, stuck, slowToAnswer] = await Promise.all([standIn('a'), standIn('b'), standIn('c'), standIn('stuck'), standIn('slow to answer')]);
  stuck.mode = 'api hangs';
  // its API hangs, and its /readyz says "ready" after 2.5 s: a probe is under way when a read gives up on it
  slowToAnswer.mode = 'api hangs';
  slowToAnswer.probeDelayMs = 2500;
  query = new ReplicaSet('query-service', [a.url, b.url], logger);
  command = new ReplicaSet('command-service', [a.url, b.url], logger);
  // a route that never answers, behind an upstream deadline short enough for a test
  const quick = { upstreamHeadersTimeoutMs: 1500 };
  const slowReads = new ReplicaSet('slow-reads', [c.url, stuck.url], logger, quick);
  const slowWrites = new ReplicaSet('slow-writes', [stuck.url], logger, quick);
  const slowProbes = new ReplicaSet('slow-probes', [c.url, slowToAnswer.url], logger, quick);
  sets.push(query, command, slowReads, slowWrites, slowProbes);
  gateway = createHttpServer({ logger: createLogger('gateway', 'silent') });
  await gateway.register(apiProxy({ command, query, trustProxy: () => false }), { prefix: '/api' });
  await gateway.register(apiProxy({ command: slowWrites, query: slowReads, trustProxy: () => false }), { prefix: '/slow' });
  await gateway.register(apiProxy({ command: slowWrites, query: slowProbes, trustProxy: () => false }), { prefix: '/slow-probes' });
  base = await gateway.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  gateway?.server.closeAllConnections();
  await gateway?.close();
  await Promise.all(sets.map((set) => set.close()));
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

interface Read {
  readonly startedAt: number;
  readonly ms: number;
  readonly status: number;
  readonly from?: string;
}

async function read(path = '/api/posts'): Promise<Read> {
  const startedAt = Date.now();
  const answer = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(UPSTREAM_HEADERS_TIMEOUT_MS + 10_000) }).catch(() => null);
  const body = answer ? ((await answer.json().catch(() => ({}))) as { from?: string }) : {};
  return { startedAt, ms: Date.now() - startedAt, status: answer?.status ?? 0, from: body.from };
}

/** Readers reading through the gateway, `concurrency` at once, until `until` says enough. */
async function readWhile(concurrency: number, until: (reads: Read[]) => boolean): Promise<Read[]> {
  const reads: Read[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!until(reads)) reads.push(await read());
    }),
  );
  return reads;
}

/** A change stream through the gateway: which replica opened it, and whether it has ended. */
async function stream() {
  const leaving = new AbortController();
  const answer = await fetch(`${base}/api/stream`, { signal: leaving.signal });
  const body = answer.body!.getReader();
  const first = (await body.read()).value as Uint8Array;
  const from = new TextDecoder().decode(first).slice(2).trim();
  let ended = false;
  void (async () => {
    try {
      while (!(await body.read()).done);
    } catch {
      // cut: ended too
    }
    ended = true;
  })();
  return { from, ended: () => ended, close: () => leaving.abort() };
}

const upOf = (set: ReplicaSet, replica: StandIn) => set.status().find((status) => status.origin === replica.url)!.up;
const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

describe('the gateway’s replica sets', () => {
  it(
    'take out a replica that accepts connections but stops answering, within an interval and a deadline, and send its reads to the other; it gets requests again once it answers',
    { timeout: 60_000 },
    async () => {
      expect(new Set((await Promise.all([read(), read(), read(), read()])).map((answer) => answer.from))).toEqual(new Set(['a', 'b']));
      const streams = await Promise.all([stream(), stream()]);
      expect(new Set(streams.map((open) => open.from))).toEqual(new Set(['a', 'b']));
      b.mode = 'hung';
      const hungAt = Date.now();
      // two writes at once: round robin sends one of them to the replica that hangs
      const writes = Promise.all([post('/api/posts'), post('/api/posts')]);
      let outAt = 0;
      const reads = await readWhile(4, (done) => {
        if (!outAt && !upOf(query, b)) outAt = Date.now();
        return outAt > 0 && done.filter((answer) => answer.startedAt >= outAt).length >= 40;
      });
      const outAfter = outAt - hungAt;
      const longest = Math.max(...reads.map((answer) => answer.ms));
      console.info(`hung replica: out after ${outAfter} ms; ${reads.length} reads, the longest ${longest} ms`);

      // taken out within an interval and a probe's deadline (and some room for a busy machine)
      expect(outAfter).toBeLessThanOrEqual(HEALTH_INTERVAL_MS + HEALTH_DEADLINE_MS + 1500);
      // every read answered, by the other replica, and none waited for the upstream deadline
      expect(reads.filter((answer) => answer.status !== 200 || answer.from !== 'a')).toEqual([]);
      expect(longest).toBeLessThan(HEALTH_INTERVAL_MS + HEALTH_DEADLINE_MS + 3000);
      // the change stream it was sending is cut (its client connects again, to a replica that answers); the other's stays open
      await waitFor(
        () => streams.map((open) => [open.from, open.ended()]),
        (ended) => ended.every(([from, over]) => over === (from === 'b')),
        5000,
      );
      for (const open of streams) open.close();

      // once out, it is sent nothing, and its probes never pile up: one at a time from each set (the
      // query set's and the command set's), each waiting for its deadline
      expect(b.asked.filter((asked) => asked.at >= outAt + 100)).toEqual([]);
      expect(b.mostProbesOpen).toBeGreaterThan(0);
      expect(b.mostProbesOpen).toBeLessThanOrEqual(2);
      const hungFor = Date.now() - hungAt;
      expect(b.probes.filter((at) => at >= hungAt).length).toBeLessThanOrEqual(2 * (Math.ceil(hungFor / HEALTH_DEADLINE_MS) + 1));

      // the write sent to it may have been done: 504, said once, never sent to the other replica
      const [first, second] = await writes;
      const statuses = [first.status, second.status].sort();
      expect(statuses).toEqual([201, 504]);
      const failed = first.status === 504 ? first : second;
      expect(failed.headers.get('retry-after')).toBe('1');
      expect(await failed.json()).toEqual({
        error: {
          code: 'UNAVAILABLE',
          message: 'The service did not answer in time; it may have done the request: send it again (with the same Idempotency-Key)',
        },
      });
      expect(b.asked.filter((asked) => asked.line === 'POST /api/posts')).toHaveLength(1);
      expect(a.asked.filter((asked) => asked.line === 'POST /api/posts' && asked.at >= hungAt)).toHaveLength(1);

      b.mode = 'ready';
      await waitFor(
        () => upOf(query, b) && upOf(command, b),
        (up) => up,
        HEALTH_INTERVAL_MS + HEALTH_DEADLINE_MS + 5000,
      );
      const after = await readWhile(2, (done) => done.length >= 10);
      expect(after.filter((answer) => answer.status !== 200)).toEqual([]);
      expect(after.filter((answer) => answer.from === 'b').length).toBeGreaterThan(0);

      // said once each way by each set in the log, with the replica and why
      const said = (service: string) =>
        lines.filter((line) => line.replica === b.url && line.replicaSet === service).map(({ level, msg, why }) => ({ level, msg, why }));
      for (const service of ['query-service', 'command-service']) {
        expect(said(service)).toEqual([
          { level: 40, msg: 'replica out: its requests go to the others', why: `no answer to /readyz within ${HEALTH_DEADLINE_MS} ms` },
          { level: 30, msg: 'replica back: it takes requests again', why: undefined },
        ]);
      }
    },
  );

  it('take out a replica whose /readyz answers 503, and put it back when it answers 200', { timeout: 30_000 }, async () => {
    b.mode = 'not ready';
    const outAt = await waitFor(
      () => (upOf(query, b) ? 0 : Date.now()),
      (at) => at > 0,
      HEALTH_INTERVAL_MS + HEALTH_DEADLINE_MS + 5000,
    );
    const reads = await readWhile(2, (done) => done.length >= 20);
    expect(reads.filter((answer) => answer.status !== 200 || answer.from !== 'a')).toEqual([]);
    expect(b.asked.filter((asked) => asked.at >= outAt + 100)).toEqual([]);
    expect(lines.filter((line) => line.replica === b.url && line.replicaSet === 'query-service').at(-1)).toMatchObject({
      level: 40,
      why: '/readyz answered 503',
    });

    b.mode = 'ready';
    await waitFor(
      () => upOf(query, b),
      (up) => up,
      HEALTH_INTERVAL_MS + HEALTH_DEADLINE_MS + 5000,
    );
    expect((await readWhile(2, (done) => done.length >= 10)).filter((answer) => answer.from === 'b').length).toBeGreaterThan(0);
  });

  it('send requests to every replica when none is up (their database is down): the client gets the service’s own answer', { timeout: 30_000 }, async () => {
    a.mode = 'not ready';
    b.mode = 'not ready';
    try {
      await waitFor(
        () => query.status(),
        (replicas) => replicas.every((replica) => !replica.up),
        HEALTH_INTERVAL_MS + HEALTH_DEADLINE_MS + 5000,
      );
      const reads = await readWhile(2, (done) => done.length >= 10);
      expect(reads.filter((answer) => answer.status !== 200)).toEqual([]);
      expect(new Set(reads.map((answer) => answer.from))).toEqual(new Set(['a', 'b']));
    } finally {
      a.mode = 'ready';
      b.mode = 'ready';
    }
  });

  it(
    'send a read that gets no answer’s headers within the upstream deadline to the other replica, and take the slow one out',
    { timeout: 30_000 },
    async () => {
      const reads = await Promise.all([read('/slow/stuck'), read('/slow/stuck')]);
      expect(reads.map((answer) => [answer.status, answer.from])).toEqual([
        [200, 'c'],
        [200, 'c'],
      ]);
      expect(stuck.asked.filter((asked) => asked.line === 'GET /slow/stuck')).toHaveLength(1);
      // the one sent to the stuck replica first waited for the deadline, no longer than a few seconds more
      expect(Math.max(...reads.map((answer) => answer.ms))).toBeGreaterThanOrEqual(1500);
      expect(Math.max(...reads.map((answer) => answer.ms))).toBeLessThan(1500 + 5000);
      expect(lines.some((line) => line.replica === stuck.url && line.why === 'no answer’s headers within 1500 ms (GET)')).toBe(true);
    },
  );

  it(
    'keep a replica taken out for a read without answer until a /readyz asked after that says it is ready: one asked before says nothing of it',
    { timeout: 30_000 },
    async () => {
      // a probe has just reached it: it is under way when the read sent to it gives up 1.5 s later
      const probes = slowToAnswer.probes.length;
      await waitFor(
        () => slowToAnswer.probes.length,
        (count) => count > probes,
        HEALTH_INTERVAL_MS + 2 * slowToAnswer.probeDelayMs + 5000,
      );
      const reads = await Promise.all([read('/slow-probes/x'), read('/slow-probes/x')]);
      expect(reads.map((answer) => [answer.status, answer.from])).toEqual([
        [200, 'c'],
        [200, 'c'],
      ]);
      expect(slowToAnswer.asked).toHaveLength(1);
      // the probe asked before the read gave up has answered "ready" by now
      await waitFor(
        () => slowToAnswer.probesOpen,
        (open) => open === 0,
        slowToAnswer.probeDelayMs + 5000,
      );
      // the replica is still out: reads go to the other
      const after = await Promise.all([read('/slow-probes/y'), read('/slow-probes/y')]);
      expect(after.map((answer) => [answer.status, answer.from])).toEqual([
        [200, 'c'],
        [200, 'c'],
      ]);
      expect(slowToAnswer.asked).toHaveLength(1);
    },
  );

  it('answer a write that gets no answer’s headers within the upstream deadline 504 UNAVAILABLE, sent once', { timeout: 30_000 }, async () => {
    const startedAt = Date.now();
    const answer = await post('/slow/stuck');
    expect(answer.status).toBe(504);
    expect(Date.now() - startedAt).toBeLessThan(1500 + 5000);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('UNAVAILABLE');
    expect(stuck.asked.filter((asked) => asked.line === 'POST /slow/stuck')).toHaveLength(1);
  });
});
