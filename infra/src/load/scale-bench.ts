/**
 * `npm run bench -- scale`: the forum at scale, side by side with the least a Node.js server can do.
 *
 * 1. A synthetic log of SCALE_EVENTS events (default 1,000,000, about 104,000 posts; 10,000,000
 *    for the long run) is loaded into a fresh data folder, and the forum (`npm start`'s entry, its
 *    own process) builds its read models from it; then VACUUM ANALYZE and a CHECKPOINT, as a forum
 *    that has run a while has had. With SCALE_DATA_DIR the folder is kept, and a later run on it
 *    measures the log it holds without loading or building again (a 10M log takes 20 minutes).
 * 2. Every read of the API (spec §7's public and member calls, the admin console's) is asked once
 *    of a query app like the forum's, here, recording the statements it runs (sql-capture.ts); a
 *    bare `node:http` + `pg` server (bare-server.ts, its own process) answers each with those same
 *    statements.
 * 3. Each read, from SCALE_CONNECTIONS (50) connections: SCALE_ROUNDS (3) rounds of SCALE_SECONDS
 *    (4) against the forum, then the bare server, interleaved; the medians. The forum keeps nothing
 *    of its answers in memory here (no visitors' answers, shared rows or callers' records; verified
 *    tokens are still kept): every read runs its statements.
 * 4. The forum again on the same data with its visitor cache (the default): the visitors' hottest
 *    reads, against the bare server again; then the members' reads (the home page, its deep pages,
 *    a post, My Posts, notifications), signed in as SCALE_MEMBERS (50) real users of the log in
 *    turn (scale-members.ts), against the bare server's same statements (the first member's).
 * 5. Commands from WRITERS (16) connections (autocannon), spread over as many Gold members: posts,
 *    votes, comments, each once unmeasured first; against the bare server's one-INSERT write and a
 *    pgbench-like loop of single-row INSERTs. Then the visitors' hottest reads again while votes
 *    arrive at SCALE_WRITE_RATE (200) a second (the bare server: as many INSERTs).
 * 6. What it took: disk (the event log, the read models) and the forum process's memory.
 *
 * Prints Markdown tables (for docs/performance.md). Exit code 1 if any request failed.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKnex } from '@forum/platform';
import { projectionStatus } from '@forum/projections';
import pg from 'pg';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import type { BareRoutes } from './bare-server.ts';
import { commandCosts, STATEMENT_SETTINGS } from './command-cost.ts';
import { benchWriters, loadedBefore, memoryOf, startBenchServer, waitUntilReady } from './server.ts';
import { measuring, msText, table, type Ask, type Figures, type Row } from './scale-measure.ts';
import { syntheticMembers } from './scale-members.ts';
import { captureReads, type ReadToCapture } from './sql-capture.ts';
import { loadSyntheticLog } from './synthetic-log.ts';

const EVENTS = Number(process.env.SCALE_EVENTS ?? 1_000_000);
const CONNECTIONS = Number(process.env.SCALE_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 3);
const SECONDS = Number(process.env.SCALE_SECONDS ?? 4);
const WRITERS = Number(process.env.WRITERS ?? 16);
/** Only the reads and commands whose name contains this (e.g. `home`, `comment`; `command:` for the commands alone), and no write-load rows; all by default. */
const ONLY = process.env.SCALE_ONLY ?? '';
/** Synthetic members signed in for the members' reads, taken in turn request by request. */
const MEMBERS = Number(process.env.SCALE_MEMBERS ?? 50);
/** The steady write load (votes a second) under which the visitors' reads are measured again. */
const WRITE_RATE = Number(process.env.SCALE_WRITE_RATE ?? 200);
const say = (line: string) => process.stderr.write(`${line}\n`);
const { cannon, commandCannon, loop, sideBySide } = measuring({ connections: CONNECTIONS, rounds: ROUNDS, seconds: SECONDS, writers: WRITERS, say });
const here = path.dirname(fileURLToPath(import.meta.url));

async function startBare(routes: BareRoutes, folder: string) {
  const file = path.join(folder, 'bare-routes.json');
  await writeFile(file, JSON.stringify(routes));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'bare-server.ts'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

// ── 1. the log and the forum on it ───────────────────────────────────────
const started = performance.now();
const keptDir = process.env.SCALE_DATA_DIR;
const dataDir = keptDir ? path.resolve(keptDir) : await mkdtemp(path.join(os.tmpdir(), 'forum-scale-bench-'));
// pg_stat_statements: the command rows' PostgreSQL time by statement (command-cost.ts)
const postgres = await startEmbeddedPostgres({ dataDir, database: 'forum', settings: STATEMENT_SETTINGS });
const loaded = await loadedBefore(postgres.url);
let events: number;
if (loaded) {
  events = loaded;
  say(`${dataDir} holds a log of ${events.toLocaleString('en')} events: measured as it is (SCALE_EVENTS does not apply)`);
} else {
  say(`loading a synthetic log of ${EVENTS.toLocaleString('en')} events…`);
  const log = await loadSyntheticLog(postgres.url, { events: EVENTS, seed: 42, onProgress: () => {} });
  events = log.events;
  say(`loaded in ${(log.ms / 1000).toFixed(1)} s; the forum builds its read models…`);
}

// PostgreSQL runs on its own, as a deployment's does: the forum starts twice on it
const forumEnv = { READY_MAX_LAG: '0' };
// first with nothing of its answers in memory (visitors' answers, shared rows, callers' records): every read runs its statements
const nothingKept = { VISITOR_CACHE_ENTRIES: '0', SHARED_READ_ROWS: '0', VIEWER_CACHE_ENTRIES: '0' };
let server = await startBenchServer({ dataDir, databaseUrl: postgres.url, env: { ...forumEnv, ...nothingKept } });
const rows: Row[] = [];
const cachedRows: Row[] = [];
const memberRows: Row[] = [];
const loadedRows: Row[] = [];
const commandRows: Row[] = [];
let failed: number;
let reference: Figures | null = null;
let bare: Awaited<ReturnType<typeof startBare>> | null = null;
let commandCostLines: string[] = [];
try {
  const buildStart = performance.now();
  await waitUntilReady(server);
  const buildSeconds = (performance.now() - buildStart) / 1000;
  const db = createKnex(server.databaseUrl, { max: 2 });
  await db.raw('VACUUM (ANALYZE)');
  await db.raw('CHECKPOINT');
  say(`read models built in ${buildSeconds.toFixed(1)} s, vacuumed, analysed and checkpointed`);

  // ── 2. what is read, and the statements the forum reads it with ─────────
  const one = async <T>(sql: string) => (await db.raw<{ rows: T[] }>(sql)).rows[0] as T;
  const { posts, users } = await one<{ posts: number; users: number }>(
    'SELECT (SELECT count(*) FROM read.posts)::int AS posts, (SELECT count(*) FROM read.users)::int AS users',
  );
  const { id: post } = await one<{ id: string }>('SELECT id FROM read.posts ORDER BY comment_count DESC, id LIMIT 1');
  const { tag, n: tagged } = await one<{ tag: string; n: number }>(
    'SELECT t AS tag, count(*)::int AS n FROM read.posts, unnest(tags) t GROUP BY t ORDER BY 2 DESC LIMIT 1',
  );
  // the most prolific author who still has an account: erased members' posts, grouped together, have no address
  const { email } = await one<{ email: string }>(
    'SELECT u.email FROM read.posts p JOIN read.users u ON u.id = p.author_id GROUP BY u.email ORDER BY count(*) DESC LIMIT 1',
  );
  // pages as deep into each list as page 5,000 of 20,800 is at 1M events (the issue's figure): 96% of the way
  const deep = (count: number, size: number) => Math.max(1, Math.floor(Math.ceil(count / size) * 0.96));
  const admin = () => server.token('admin@forum.local');
  const reads: (ReadToCapture & { signedIn?: boolean; connections?: number })[] = [
    { name: 'home, newest, page 1', path: '/posts?page=1&sort=newest' },
    { name: `home, newest, page ${deep(posts, 5)}`, path: `/posts?page=${deep(posts, 5)}&sort=newest` },
    { name: 'home, popular, page 1', path: '/posts?page=1&sort=popularity' },
    { name: `home, popular, page ${deep(posts, 5)}`, path: `/posts?page=${deep(posts, 5)}&sort=popularity` },
    { name: 'a post', path: `/posts/${post}` },
    { name: "a post's comments", path: `/comments/${post}` },
    { name: 'search by tag (spec §7, 100 rows)', path: `/posts/search?tag=${encodeURIComponent(tag)}` },
    { name: 'tag page 1', path: `/posts/search?tag=${encodeURIComponent(tag)}&page=1` },
    { name: `tag page ${deep(tagged, 5)}`, path: `/posts/search?tag=${encodeURIComponent(tag)}&page=${deep(tagged, 5)}` },
    // as many at once as the search's bulkhead runs (SEARCH_CONCURRENCY): more would wait their turn, and past SEARCH_QUEUE answer 503 BUSY by design
    { name: 'full-text search ?q=database (4 connections)', path: '/posts/search?q=database', connections: 4 },
    { name: 'tags', path: '/tags' },
    { name: 'leaderboard', path: '/users/top-voted' },
    { name: 'a profile', path: `/user-profile/${encodeURIComponent(email)}` },
    { name: 'announcements', path: '/announcements' },
    { name: 'me (signed in)', path: '/me', signedIn: true },
    { name: 'my posts (signed in)', path: `/my-posts/${encodeURIComponent(email)}`, signedIn: true },
    { name: 'post count (signed in)', path: `/user-post-count/${encodeURIComponent(email)}`, signedIn: true },
    { name: 'notifications (signed in)', path: '/me/notifications', signedIn: true },
    { name: 'admin: stats', path: '/admin/stats', signedIn: true },
    { name: 'admin: users page 1', path: '/admin/users?page=1', signedIn: true },
    { name: `admin: users page ${deep(users, 10)}`, path: `/admin/users?page=${deep(users, 10)}`, signedIn: true },
    { name: 'admin: users search', path: '/admin/users?page=1&search=ann', signedIn: true },
    { name: 'admin: tags', path: '/admin/tags', signedIn: true },
    { name: 'admin: reported comments', path: '/admin/reported-comments', signedIn: true },
    { name: 'admin: contact messages', path: '/admin/contact-messages', signedIn: true },
    { name: 'admin: staff actions', path: '/admin/audit', signedIn: true },
    { name: 'admin: projections', path: '/admin/projections', signedIn: true },
    { name: "admin: a post's history", path: `/admin/history/post/${post}`, signedIn: true },
  ].filter((read) => read.name.includes(ONLY));
  // members' reads, signed in as real users of the log; a read's path may name the member (My Posts)
  const members = await syntheticMembers(db, MEMBERS);
  const memberReads: (ReadToCapture & { pathOf: (email: string) => string })[] = [
    { name: 'home, newest, page 1', pathOf: () => '/posts?page=1&sort=newest' },
    { name: `home, newest, page ${deep(posts, 5)}`, pathOf: () => `/posts?page=${deep(posts, 5)}&sort=newest` },
    { name: 'home, popular, page 1', pathOf: () => '/posts?page=1&sort=popularity' },
    { name: `home, popular, page ${deep(posts, 5)}`, pathOf: () => `/posts?page=${deep(posts, 5)}&sort=popularity` },
    { name: 'a post', pathOf: () => `/posts/${post}` },
    { name: 'my posts', pathOf: (own: string) => `/my-posts/${encodeURIComponent(own)}` },
    { name: 'notifications', pathOf: () => '/me/notifications' },
  ]
    .map((read) => ({ ...read, name: `member: ${read.name}`, path: read.pathOf(members.emails[0]!) }))
    .filter((read) => read.name.includes(ONLY));
  const token = await admin();
  const [memberToken] = await members.tokens(server);
  const issuer = `http://localhost:${new URL(server.base).port}/realms/forum`;
  const captured = await captureReads(server.databaseUrl, server.base, issuer, [
    ...reads.map((read) => ({ ...read, ...(read.signedIn ? { token } : {}) })),
    ...memberReads.map((read) => ({ ...read, token: memberToken! })),
  ]);
  for (const [name, read] of captured) {
    if (read.status !== 200) throw new Error(`${name}: the query app answered ${read.status}`);
    if (read.statements.length === 0) throw new Error(`${name}: no statement recorded`);
  }
  bare = await startBare(
    { databaseUrl: server.databaseUrl, poolSize: 16, reads: Object.fromEntries([...captured].map(([name, read]) => [name, read.statements])) },
    dataDir,
  );
  say(
    `${reads.length + memberReads.length} reads captured (${[...captured.values()].reduce((n, r) => n + r.statements.length, 0)} statements); the bare server answers them`,
  );

  // ── 3. every read, uncached, side by side ───────────────────────────────
  const measureReads = async (list: typeof reads, into: Row[]) => {
    for (const read of list) {
      const headers: Record<string, string> = read.signedIn ? { Authorization: `Bearer ${await admin()}` } : {};
      into.push(
        await sideBySide(
          read.name,
          () => cannon(`${server.base}/api${read.path}`, headers, read.connections),
          () => cannon(`${bare!.base}/read/${encodeURIComponent(read.name)}`, {}, read.connections),
        ),
      );
    }
  };
  say(`reads, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each side:`);
  await measureReads(reads, rows);
  const memory = await memoryOf(server.pid);

  // ── 4. the visitors' hottest reads, from the forum's memory ─────────────
  await server.stop({ keepData: true });
  server = await startBenchServer({ dataDir, databaseUrl: postgres.url, env: forumEnv });
  await waitUntilReady(server);
  say("visitors' reads with the visitor cache:");
  const hottest = ['home, newest, page 1', 'home, popular, page 1', 'a post', "a post's comments", 'tag page 1', 'leaderboard'];
  await measureReads(
    reads.filter((read) => hottest.includes(read.name)),
    cachedRows,
  );

  // the bare server answers every member with the first member's statements (the same but for the ids)
  say(`members' reads, ${members.emails.length} members in turn, the forum as deployed (its visitor cache on):`);
  for (const read of memberReads) {
    const tokens = await members.tokens(server);
    const ask = (i: number): Ask => {
      const member = i % tokens.length;
      return { path: `/api${read.pathOf(members.emails[member]!)}`, headers: { Authorization: `Bearer ${tokens[member]}` } };
    };
    memberRows.push(
      await sideBySide(
        read.name,
        () => cannon(`${server.base}/api${read.path}`, {}, undefined, ask),
        () => cannon(`${bare!.base}/read/${encodeURIComponent(read.name)}`, {}),
      ),
    );
  }

  // ── 5. commands (with SCALE_ONLY, only those whose label holds it, and no write-load rows) ──
  const COMMAND_LABELS = ['create a post', 'vote', 'comment'];
  // a command is named `command: <label>` here: SCALE_ONLY=command: measures the three and no read
  const commandWanted = (label: string) => `command: ${label}`.includes(ONLY);
  if (COMMAND_LABELS.some(commandWanted)) {
    say(`commands, ${WRITERS} clients:`);
    const writerPrefix = 'scale-writer';
    const writers = await benchWriters(server, WRITERS, writerPrefix);
    // never a writer's own post (a vote on it is refused, 422 OWN_POST_VOTE): on a kept data folder
    // (SCALE_DATA_DIR) the writers of earlier runs wrote a good part of the posts; nor one staff hid
    // (404 to members) or locked (no comments)
    const targets = (
      await db.raw<{ rows: { id: string }[] }>(
        'SELECT id FROM read.posts WHERE author_email NOT LIKE ? AND hidden_at IS NULL AND NOT locked ORDER BY random() LIMIT 4000',
        [`${writerPrefix}-%`],
      )
    ).rows.map((r) => r.id);
    // request i of a run is client i % WRITERS's: at most WRITERS in flight, never two on one vote
    const client = (i: number) => i % WRITERS;
    const postBody = (i: number) => ({ title: `Scale post ${i}`, description: 'Written by npm run bench -- scale. '.repeat(6), tags: [tag] });
    const votes = new Map<string, 'up' | 'none'>();
    const voteOn = (i: number) => {
      const postId = targets[i % targets.length]!;
      const key = `${client(i)}:${postId}`;
      const vote = votes.get(key) === 'up' ? 'none' : 'up';
      votes.set(key, vote);
      return { postId, vote };
    };
    const commentBody = (i: number) => ({ postId: targets[(i * 7) % targets.length]!, text: `Scale comment ${i}: a few words of agreement.` });
    let tokens = await writers.tokens();
    // an Idempotency-Key on every command, new for each request (as forum-web sends one per attempt)
    const forum = (expect: number, method: string, request: (i: number) => { path: string; body: unknown }) => async () => {
      tokens = await writers.tokens();
      const run = randomUUID();
      return commandCannon(server.base, expect, (i) => ({ method, ...request(i), token: tokens[client(i)]!, idempotencyKey: `${run}-${i}` }));
    };
    const bareWrite = (body: (i: number) => unknown) => () => commandCannon(bare!.base, 201, (i) => ({ method: 'POST', path: '/write', body: body(i) }));
    const commands = [
      { label: 'create a post', forum: forum(201, 'POST', (i) => ({ path: '/api/posts', body: postBody(i) })), bare: bareWrite(postBody) },
      {
        label: 'vote',
        forum: forum(200, 'PUT', (i) => {
          const { postId, vote } = voteOn(i);
          return { path: `/api/posts/${postId}/vote`, body: { vote } };
        }),
        bare: bareWrite(voteOn),
      },
      { label: 'comment', forum: forum(201, 'POST', (i) => ({ path: '/api/comments', body: commentBody(i) })), bare: bareWrite(commentBody) },
    ];
    const wanted = commands.filter((command) => commandWanted(command.label));
    // a forum that has been running: each command once before the measured rounds (the JIT, PostgreSQL's caches)
    for (const command of wanted) await command.forum();
    const costPool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
    try {
      const costs = await commandCosts(costPool, { forum: server.pid, bare: bare.pid }, SECONDS);
      for (const command of wanted)
        commandRows.push(await sideBySide(command.label, costs.forum(command.label, command.forum), costs.bare(command.label, command.bare)));
      commandCostLines = costs.report();
    } finally {
      await costPool.end();
    }
    // the write-load rows and the INSERT reference: the whole run only
    if (!ONLY) {
      // the visitors' hottest reads while votes arrive at a steady rate: each batch the projections
      // apply moves the read side's version, and with it the visitor cache's key
      say(`visitors' reads under ${WRITE_RATE} votes/s:`);
      const underVotes = async (read: () => Promise<Figures>, votes: () => Promise<Figures>) => {
        const [figures, written] = await Promise.all([read(), votes()]);
        if (written.errors > 0) throw new Error(`the write load under the visitors' reads had ${written.errors} failed votes`);
        return figures;
      };
      const steadyVotes = () =>
        commandCannon(
          server.base,
          200,
          (i) => {
            const { postId, vote } = voteOn(i);
            return { method: 'PUT', path: `/api/posts/${postId}/vote`, body: { vote }, token: tokens[client(i)]! };
          },
          WRITE_RATE,
        );
      const bareVotes = () => commandCannon(bare!.base, 201, (i) => ({ method: 'POST', path: '/write', body: voteOn(i) }), WRITE_RATE);
      tokens = await writers.tokens();
      for (const read of reads.filter((r) => ['home, newest, page 1', 'a post'].includes(r.name))) {
        loadedRows.push(
          await sideBySide(
            `${read.name}, under ${WRITE_RATE} votes/s`,
            () => underVotes(() => cannon(`${server.base}/api${read.path}`, {}), steadyVotes),
            () => underVotes(() => cannon(`${bare!.base}/read/${encodeURIComponent(read.name)}`, {}), bareVotes),
          ),
        );
      }
      // a pgbench-like reference: single-row INSERT transactions straight from pg, no HTTP
      const pool = new pg.Pool({ connectionString: server.databaseUrl, max: WRITERS });
      const inserts = await loop(WRITERS, 201, async (c, i) => {
        await pool.query('INSERT INTO bench_bare.writes (body) VALUES ($1::jsonb)', [JSON.stringify({ c, i })]);
        return new Response(null, { status: 201 });
      });
      await pool.end();
      reference = inserts;
    }
  }

  // ── 6. what it took ─────────────────────────────────────────────────────
  const liveSchemas = (await projectionStatus(db)).filter((s) => s.role === 'live').map((s) => s.schema);
  const sizes = (
    await db.raw<{ rows: { database: string; events: string; read: string }[] }>(
      `SELECT pg_database_size(current_database()) AS database,
            pg_total_relation_size('eventstore.events') AS events,
            (SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relkind = 'r' AND n.nspname = ANY(?)) AS read`,
      [liveSchemas],
    )
  ).rows[0]!;
  await db.destroy();
  const gb = (bytes: string | number) => (Number(bytes) / 2 ** 30).toFixed(2);
  const perMillion = (bytes: string | number) => ((Number(bytes) / 2 ** 30) * (1_000_000 / Math.max(1, posts))).toFixed(1);

  failed =
    [...rows, ...cachedRows, ...memberRows, ...loadedRows, ...commandRows].reduce((n, row) => n + row.forum.errors + row.bare.errors, 0) +
    (reference?.errors ?? 0);
  const lines = [
    '',
    `forum bench: scale (${os.cpus().length} cores, Node ${process.version}, PostgreSQL with fsync on): ${events.toLocaleString('en')} events, ${posts.toLocaleString('en')} posts, ${users.toLocaleString('en')} users; ${loaded ? `read models built by an earlier run (${dataDir})` : `read models built in ${buildSeconds.toFixed(0)} s`}`,
    `${CONNECTIONS} connections per read, ${ROUNDS} interleaved rounds of ${SECONDS} s per side, medians; the bare server runs the statements the forum ran for the same read`,
    '',
    ...table('read (nothing kept in memory)', rows),
    '',
    ...(cachedRows.length ? [...table("visitor read, from the forum's memory", cachedRows), ''] : []),
    ...(memberRows.length ? [...table(`member read (signed in, ${members.emails.length} members of the log in turn; visitor cache on)`, memberRows), ''] : []),
    ...(loadedRows.length ? [...table(`visitor read under a steady write load (${WRITE_RATE} votes/s on both sides)`, loadedRows), ''] : []),
    ...(commandRows.length
      ? [...table(`command (${WRITERS} clients, an Idempotency-Key on each; bare: one INSERT)`, commandRows), '', ...commandCostLines, '']
      : []),
    ...(reference
      ? [
          `reference: single-row INSERT transactions straight from pg (no HTTP), ${WRITERS} connections: ${Math.round(reference.rps).toLocaleString('en')}/s, p50 ${msText(reference.p50)} ms, p99 ${msText(reference.p99)} ms`,
          '',
        ]
      : []),
    `disk: ${gb(sizes.database)} GB in all (event log ${gb(sizes.events)} GB, read models ${gb(sizes.read)} GB): per million posts ${perMillion(sizes.database)} GB (log ${perMillion(sizes.events)} GB, read models ${perMillion(sizes.read)} GB)`,
    `memory: the forum process ${Math.round(memory.rssMb)} MB resident after the reads (peak ${Math.round(memory.peakMb)} MB); PostgreSQL's shared buffers apart`,
    `failed requests: ${failed}; ${((performance.now() - started) / 60_000).toFixed(1)} min in all`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  await bare?.stop();
  await server.stop({ keepData: true });
  await postgres.stop();
  if (!keptDir) await rm(dataDir, { recursive: true, force: true });
}
if (failed > 0) process.exitCode = 1;
