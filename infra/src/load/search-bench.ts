/**
 * `npm run bench -- search`: full-text searches no cache can answer, at scale (issue #47).
 *
 * A synthetic log of SEARCH_EVENTS events (default 1,000,000; 10,000,000 for the long run) is
 * loaded into a fresh data folder, or the log a kept folder holds is measured as it is
 * (SEARCH_DATA_DIR, as the scale bench's SCALE_DATA_DIR: a folder one of them filled serves both);
 * the forum (`npm start`'s entry, its own process, its settings the defaults) builds its read
 * models, and the tables are vacuumed and analysed.
 *
 * Each search is two words of the posts' own vocabulary, common to rare (a sample of the posts'
 * words by how many posts have them), a word no post has, excluded, so that no cache can answer
 * it, and a page of 1 to 3. SEARCH_CLIENTS (1, 4, 20) clients each search in a closed loop for
 * SEARCH_SECONDS (10), after as long again of warm-up: the searches a second, their p50 and p99,
 * those refused as busy (503) and any other failure, and the CPU each part of the machine spent
 * a search (the forum, PostgreSQL, this load generator), from /proc.
 *
 * Prints a Markdown table (for docs/performance.md). Exit code 1 if a search failed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createKnex } from '@forum/platform';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { benchProcesses, CpuSplit } from './cpu-split.ts';
import { loadedBefore, startBenchServer, waitUntilReady } from './server.ts';
import { percentile } from './stats.ts';
import { loadSyntheticLog } from './synthetic-log.ts';

const EVENTS = Number(process.env.SEARCH_EVENTS ?? 1_000_000);
const CLIENTS = (process.env.SEARCH_CLIENTS ?? '1,4,20').split(',').map(Number);
const SECONDS = Number(process.env.SEARCH_SECONDS ?? 10);
const say = (line: string) => process.stderr.write(`${line}\n`);

const started = performance.now();
const keptDir = process.env.SEARCH_DATA_DIR;
const dataDir = keptDir ? path.resolve(keptDir) : await mkdtemp(path.join(os.tmpdir(), 'forum-search-bench-'));
const postgres = await startEmbeddedPostgres({ dataDir, database: 'forum' });
const admin = createKnex(postgres.url, { max: 2 });
let events = (await loadedBefore(postgres.url)) ?? 0;
if (events > 0) say(`${dataDir} holds a log of ${events.toLocaleString('en')} events: measured as it is`);
else {
  say(`loading a synthetic log of ${EVENTS.toLocaleString('en')} events…`);
  const log = await loadSyntheticLog(postgres.url, { events: EVENTS, seed: 42, onProgress: () => {} });
  events = log.events;
  say(`loaded in ${(log.ms / 1000).toFixed(1)} s`);
}

const server = await startBenchServer({ dataDir, databaseUrl: postgres.url, env: { READY_MAX_LAG: '0' } });
let failed = 0;
try {
  const building = performance.now();
  await waitUntilReady(server);
  say(`read models ready in ${((performance.now() - building) / 1000).toFixed(1)} s; vacuuming and analysing…`);
  await admin.raw('VACUUM (ANALYZE)');

  // the posts' own words, by how many posts of a sample (one in 16, by id) have them; stop words (no lexeme) left out
  const { rows: vocabulary } = await admin.raw<{ rows: { word: string; posts: number }[] }>(
    `SELECT word, count(*)::int AS posts FROM (
       SELECT DISTINCT p.id, lower(w) AS word
       FROM (SELECT id, title || ' ' || description AS text FROM read.posts WHERE right(id::text, 1) = '0') p,
            regexp_split_to_table(p.text, '[^[:alpha:]]+') AS w
     ) words
     WHERE length(word) > 1 AND to_tsvector('english', word) <> ''::tsvector
     GROUP BY word HAVING count(*) > 1 ORDER BY 2 DESC, 1`,
  );
  const { rows: counted } = await admin.raw<{ rows: { posts: number }[] }>('SELECT count(*)::int AS posts FROM read.posts');
  if (vocabulary.length < 2) throw new Error('the posts have too few words to search for');
  say(
    `${counted[0]!.posts.toLocaleString('en')} posts; ${vocabulary.length} words, from ${vocabulary[0]!.word} (${vocabulary[0]!.posts} posts of the sample) to ${vocabulary.at(-1)!.word} (${vocabulary.at(-1)!.posts})`,
  );

  let asked = 0;
  const nextPath = () => {
    const pick = () => vocabulary[Math.floor(Math.random() * vocabulary.length)]!.word;
    asked += 1;
    const q = `${pick()} ${pick()} -zqx${asked.toString(36)}never`;
    return `/api/posts/search?q=${encodeURIComponent(q)}&page=${1 + Math.floor(Math.random() * 3)}`;
  };
  // node:http with kept-alive connections, as light a client as Node has (fetch spent about 1 ms a search)
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(...CLIENTS) });
  const { hostname, port } = new URL(server.base);
  /** A search's status once its whole answer is in; 0 for an error on the way. */
  const get = (searchPath: string) =>
    new Promise<number>((resolve) => {
      request({ agent, hostname, port, path: searchPath }, (response) => {
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
        response.resume();
      })
        .on('error', () => resolve(0))
        .end();
    });

  /** `clients` closed loops for `seconds`: each asks its next search once its last is answered. */
  const closedLoop = async (clients: number, seconds: number) => {
    const latencies: number[] = [];
    let busy = 0;
    let errors = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < until) {
          const at = performance.now();
          const status = await get(nextPath());
          if (status === 200) latencies.push(performance.now() - at);
          else if (status === 503) busy += 1;
          else errors += 1;
        }
      }),
    );
    return { latencies, busy, errors };
  };

  const lines = [
    '| clients | searches/s | p50 ms | p99 ms | busy (503) | failed | CPU ms a search: forum | PostgreSQL | load generator |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const clients of CLIENTS) {
    await closedLoop(clients, Math.min(SECONDS, 5));
    // sampled each second: reading /proc costs the load generator's CPU, and no process ends meanwhile
    const split = new CpuSplit(process.pid, benchProcesses({ forum: server.pid }), 1000);
    await split.start();
    const from = performance.now();
    const { latencies, busy, errors } = await closedLoop(clients, SECONDS);
    const seconds = (performance.now() - from) / 1000;
    const cpu = await split.stop();
    failed += errors;
    const answered = latencies.length;
    const perSearch = (part: string) => (((cpu.get(part) ?? 0) * 1000) / Math.max(1, answered + busy)).toFixed(2);
    const line = `| ${clients} | ${Math.round(answered / seconds).toLocaleString('en')} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${busy} | ${errors} | ${perSearch('forum')} | ${perSearch('PostgreSQL')} | ${perSearch('load generator')} |`;
    say(line);
    lines.push(line);
  }
  process.stdout.write(
    `\nFull-text searches no cache can answer: ${events.toLocaleString('en')} events, ${counted[0]!.posts.toLocaleString('en')} posts, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ${SECONDS} s a row (${((performance.now() - started) / 1000).toFixed(0)} s in all)\n\n${lines.join('\n')}\n`,
  );
} finally {
  await server.stop({ keepData: true });
  await admin.destroy();
  await postgres.stop();
  if (!keptDir) await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
