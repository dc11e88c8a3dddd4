/**
 * `npm run bench -- sitemap`: the sitemap (issue #46, docs/seo.md) at SITEMAP_POSTS (1,000,000) posts.
 *
 * 1. A log of SITEMAP_POSTS PostCreated events (and 20 tags) is written straight into a fresh event
 *    store by SQL (a posts-only log: the synthetic log of the scale bench holds a post per ten events,
 *    so a million posts would be ten million events and some 25 minutes here).
 * 2. The sitemap projection alone builds its read model from it, as the runner builds any
 *    (its ordinary batches): the time it took. Then VACUUM ANALYZE.
 * 3. The query side's sitemap routes (discoveryRoutes, as the forum registers them) on a server of
 *    their own, with the default file size (50,000) and no answers kept in memory: the index, the
 *    first, a middle and the last file, SITEMAP_ROUNDS (20) sequential requests each after a warm-up
 *    (curl's time to the last byte, and the size); then the index again as the visitors' memory keeps it,
 *    and a file's 304 for a reader that sends its ETag.
 *
 * Prints a Markdown table (for docs/seo.md).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { SITEMAP_INDEX_PATH, SITEMAP_MAX_URLS, sitemapFilePath } from '@forum/contracts';
import { createPostgresEventStore, migrateEventStore } from '@forum/eventstore';
import { createHttpServer, createKnex, createLogger } from '@forum/platform';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { createProjectionRunner, projectionStatus, sitemapProjection } from '@forum/projections';
import { CheckpointWatcher, createReadDb, discoveryRoutes, readSettings } from '@forum/query-service';
import pg from 'pg';
import { z } from 'zod';

const POSTS = Number(process.env.SITEMAP_POSTS ?? 1_000_000);
const ROUNDS = Number(process.env.SITEMAP_ROUNDS ?? 20);
const run = promisify(execFile);
const say = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-sitemap-bench-'));
const postgres = await startEmbeddedPostgres({ dataDir, database: 'forum' });
const logger = createLogger('sitemap-bench', 'warn');
const closers: (() => Promise<unknown>)[] = [];
try {
  // ── 1. the log ──────────────────────────────────────────────────────────
  say(`writing a log of ${POSTS.toLocaleString('en')} posts…`);
  let started = performance.now();
  const client = new pg.Pool({ connectionString: postgres.url, max: 1 });
  await migrateEventStore(client);
  const metadata = `jsonb_build_object('actorId', 'bench', 'correlationId', gen_random_uuid()::text, 'causationId', null, 'requestId', null, 'schemaVersion', 1)`;
  await client.query(
    `INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata, recorded_at)
     SELECT 'tags', i, 'TagCreated', jsonb_build_object('tagId', gen_random_uuid(), 'name', 'Tag ' || i, 'createdAt', now()), ${metadata}, now()
     FROM generate_series(1, 20) i`,
  );
  // in transactions of 100,000, as a log has many
  for (let from = 1; from <= POSTS; from += 100_000) {
    await client.query(
      `INSERT INTO eventstore.events (stream_id, stream_version, type, data, metadata, recorded_at)
       SELECT 'post-' || id, 1, 'PostCreated',
              jsonb_build_object('postId', id, 'title', 'Post ' || i, 'description', 'About ' || i, 'tags', jsonb_build_array('Tag ' || (i % 20 + 1)),
                                 'authorId', 'author-' || (i % 1000), 'authorName', 'Author', 'authorEmail', 'a@forum.local', 'authorPhoto', '',
                                 'createdAt', now() - (($2 - i) || ' seconds')::interval),
              ${metadata}, now()
       FROM (SELECT i, gen_random_uuid() AS id FROM generate_series($1::int, least($1::int + 99_999, $2::int)) i) p`,
      [from, POSTS],
    );
  }
  await client.query(
    'INSERT INTO eventstore.streams (stream_id, version) SELECT stream_id, max(stream_version) FROM eventstore.events GROUP BY stream_id ON CONFLICT DO NOTHING',
  );
  await client.end();
  const wrote = performance.now() - started;
  say(`written in ${seconds(wrote)}; the sitemap projection builds…`);

  // ── 2. the projection ───────────────────────────────────────────────────
  const db = createKnex(postgres.url, { max: 4 });
  closers.push(() => db.destroy());
  const store = await createPostgresEventStore({ connectionString: postgres.url, poolSize: 2 });
  closers.push(() => store.close());
  started = performance.now();
  const runner = createProjectionRunner({ db, connectionString: postgres.url, store, projections: [sitemapProjection], logger });
  await runner.start();
  for (;;) {
    const [status] = await projectionStatus(db);
    if (status?.error) throw new Error(`the sitemap projection halted: ${status.error}`);
    if (status?.role === 'live' && status.lag === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const built = performance.now() - started;
  await runner.stop();
  await db.raw('VACUUM ANALYZE');
  say(`built in ${seconds(built)}; reading…`);

  // ── 3. the reads ────────────────────────────────────────────────────────
  const settings = z.object(readSettings).parse({});
  const readDb = createReadDb(postgres.url, settings, logger);
  closers.push(() => readDb.destroy());
  const watcher = new CheckpointWatcher(postgres.url, logger);
  await watcher.start();
  closers.push(() => watcher.close());
  const serve = async (visitorCacheEntries: number) => {
    const server = createHttpServer({ logger });
    await server.register(
      discoveryRoutes({ db: readDb, watcher, publicUrl: 'https://forum.example.com', urlsPerFile: SITEMAP_MAX_URLS, visitorCacheEntries, maxWaitMs: 3000 }),
    );
    const base = await server.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => server.close());
    return base;
  };
  const files = Math.ceil((POSTS + 20) / SITEMAP_MAX_URLS);
  const paths = [SITEMAP_INDEX_PATH, sitemapFilePath(1), sitemapFilePath(Math.ceil(files / 2)), sitemapFilePath(files)];
  const rows: string[] = [];
  const measure = async (base: string, what: string, urlPath: string, headers: Record<string, string> = {}) => {
    const times: number[] = [];
    let bytes = 0;
    let status = 0;
    // curl, a process of its own, as a crawler is: the time is the server's and the wire's, not a client's in this process
    const args = [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_download} %{time_total}',
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    ];
    for (let i = 0; i < ROUNDS + 3; i++) {
      const { stdout } = await run('curl', [...args, `${base}${urlPath}`]);
      const [code, size, total] = stdout.trim().split(' ');
      if (i >= 3) times.push(Number(total) * 1000);
      bytes = Number(size);
      status = Number(code);
    }
    times.sort((a, b) => a - b);
    const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    rows.push(`| ${what} | \`${urlPath}\` | ${status} | ${(bytes / 1024).toFixed(0)} KiB | ${pick(0.5)} | ${pick(0.95)} | ${times.at(-1)!.toFixed(1)} |`);
  };
  const plain = await serve(0);
  for (const urlPath of paths) await measure(plain, 'read each time', urlPath);
  // the baseline of this run (these machines' speed moves by 2× from day to day): PostgreSQL's own time
  // for a full file's statement, and a 304 (the server's least work)
  const statement = await readDb.raw<{ rows: { 'QUERY PLAN': { 'Execution Time': number }[] }[] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) SELECT string_agg(entry, E'\\n<url><loc>https://forum.example.com' ORDER BY seq)
     FROM read.sitemap_pages WHERE seq > ? AND seq <= ? AND NOT hidden GROUP BY (seq - 1) / 250 ORDER BY (seq - 1) / 250`,
    [SITEMAP_MAX_URLS, 2 * SITEMAP_MAX_URLS],
  );
  const statementMs = statement.rows[0]!['QUERY PLAN'][0]!['Execution Time'];
  const kept = await serve(10_000);
  await measure(kept, 'visitors’ memory', SITEMAP_INDEX_PATH);
  const etag = (await fetch(`${kept}${sitemapFilePath(files)}`)).headers.get('etag') ?? '';
  await measure(kept, 'If-None-Match', sitemapFilePath(files), { 'If-None-Match': etag });

  process.stdout.write(
    [
      `Load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(', ')} on ${os.cpus().length} cores; a full file's statement ran ${statementMs.toFixed(1)} ms in PostgreSQL.`,
      '',
      `Sitemap at ${POSTS.toLocaleString('en')} posts and 20 tags (${files} files of at most ${SITEMAP_MAX_URLS.toLocaleString('en')}): log written in ${seconds(wrote)}, the sitemap projection built in ${seconds(built)} (${Math.round((POSTS / built) * 1000).toLocaleString('en')} posts/s); ${ROUNDS} sequential requests each, ms to the last byte.`,
      '',
      '| answered | path | status | size | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  for (const close of closers.reverse()) await close().catch(() => {});
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
