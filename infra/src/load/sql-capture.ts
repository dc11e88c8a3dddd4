/**
 * The statements the query-service runs for a read, as it runs them: the scale bench's bare
 * baseline replays them (see bare-server.ts), so the two answer with the same SQL.
 *
 * A query server is built here, in this process, as the forum builds its own (same settings, but
 * nothing kept in memory: every read runs its statements, the caller's record included), on the
 * forum's database and identity realm; each read is injected once to warm up and once more with every pg statement of that request
 * recorded (pg.Client's query, which knex and the event store both go through, followed along
 * the request's async context from the server's first hook).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createPostgresEventStore } from '@forum/eventstore';
import { createHttpServer, createLogger, createTokenVerifier, DEFAULT_AUDIENCE, TrustProxy } from '@forum/platform';
import { CheckpointWatcher, createReadDb, queryApi, readLimits, readSettings, startLiveChanges, streamLimits } from '@forum/query-service';
import pg from 'pg';
import { z } from 'zod';
import type { CapturedStatement } from './bare-server.ts';
import { entityTimeline } from '../entity-timelines.ts';

export interface ReadToCapture {
  readonly name: string;
  /** Under /api, with its query string. */
  readonly path: string;
  readonly token?: string;
}

export interface CapturedRead {
  readonly statements: CapturedStatement[];
  readonly status: number;
  readonly bytes: number;
}

const recording = new AsyncLocalStorage<CapturedStatement[]>();

/** Records every statement a pg client runs inside `recording` (once per process). */
function recordStatements() {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown; __recorded?: boolean };
  if (proto.__recorded) return;
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const sink = recording.getStore();
    const [config, values] = args;
    if (sink) {
      if (typeof config === 'string') sink.push({ text: config, ...(Array.isArray(values) ? { values } : {}) });
      else if (config && typeof (config as { text?: unknown }).text === 'string') {
        const { text, values: configValues, name } = config as { text: string; values?: unknown[]; name?: string };
        const bound = configValues ?? (Array.isArray(values) ? values : undefined);
        sink.push({ text, ...(bound ? { values: bound } : {}), ...(name ? { name } : {}) });
      }
    }
    return original.apply(this, args);
  };
  proto.__recorded = true;
}

/** Each read's statements, status and answer size, from a query server like the forum's on `databaseUrl`, trusting tokens of `forumBase`'s realm. */
export async function captureReads(
  databaseUrl: string,
  forumBase: string,
  issuer: string,
  reads: readonly ReadToCapture[],
): Promise<Map<string, CapturedRead>> {
  recordStatements();
  const settings = z.object(readSettings).parse({ VISITOR_CACHE_ENTRIES: 0, VIEWER_CACHE_ENTRIES: 0, SHARED_READ_ROWS: 0 });
  const logger = createLogger('sql-capture', 'silent');
  const db = createReadDb(databaseUrl, settings);
  const store = await createPostgresEventStore({ connectionString: databaseUrl, poolSize: 2 });
  const watcher = new CheckpointWatcher(databaseUrl, logger);
  await watcher.start();
  const live = await startLiveChanges({ store, watcher, db, logger, settings: streamLimits({ ...settings, TRUST_PROXY: TrustProxy.parse(undefined) }) });
  let sink: CapturedStatement[] | null = null;
  const server = createHttpServer({ logger });
  // the server's first hook, added before the API's own: all that follows (the viewer's lookup in
  // the API's hooks, the route's statements) runs inside the recording
  server.addHook('onRequest', (_request, _reply, done) => (sink ? recording.run(sink, done) : done()));
  server.register(
    queryApi({
      db,
      events: store,
      entityTimelines: (kind, id) => entityTimeline(store, kind, id),
      watcher,
      verifyToken: createTokenVerifier({ issuer, audience: DEFAULT_AUDIENCE, jwksUrl: `${forumBase}/realms/forum/protocol/openid-connect/certs` }),
      logger,
      ...readLimits(settings),
      live,
    }),
    { prefix: '/api' },
  );
  const captured = new Map<string, CapturedRead>();
  try {
    for (const read of reads) {
      const ask = () => server.inject({ method: 'GET', url: `/api${read.path}`, headers: read.token ? { authorization: `Bearer ${read.token}` } : {} });
      await ask();
      const statements: CapturedStatement[] = [];
      sink = statements;
      const response = await ask();
      sink = null;
      captured.set(read.name, { statements, status: response.statusCode, bytes: response.rawPayload.byteLength });
    }
  } finally {
    await server.close();
    await live.close();
    await watcher.close();
    await store.close();
    await db.destroy();
  }
  return captured;
}
