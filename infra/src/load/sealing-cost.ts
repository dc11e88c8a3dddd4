/**
 * What sealing personal data costs (docs/security/erasure.md), measured on one machine with the
 * same code both ways: the event store as it runs (every event of a type with personal data sealed
 * as it is written, opened as it is read), and with the sealing trigger turned off (events stored
 * and read as before). `npx tsx infra/src/load/sealing-cost.ts`; SEALING_EVENTS (default 50,000)
 * sets the synthetic log's size, SEALING_COMMANDS (default 400) the commands timed.
 *
 * 1. A command's latency: createPost then addComment of one member, one after another, through
 *    the forum's commands (stream reads, decide, append), median and 95th percentile.
 * 2. A rebuild: the synthetic log loaded, then every projection rebuilt (forumctl rebuild --all
 *    --no-verify), in events a second.
 * 3. The one-time rewrite that seals a log stored before sealing existed (the plain one of 2).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createForumCommands } from '@forum/command-service';
import { createPostgresEventStore, migrateEventStore, SEAL_REWRITE } from '@forum/eventstore';
import { runForumctl } from '../ops/forumctl.ts';
import pg from 'pg';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { ms, percentile } from './stats.ts';
import { loadSyntheticLog } from './synthetic-log.ts';

const EVENTS = Number(process.env.SEALING_EVENTS ?? 50_000);
const COMMANDS = Number(process.env.SEALING_COMMANDS ?? 400);
const say = (line: string) => process.stdout.write(`${line}\n`);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-sealing-cost-'));
const postgres = await startEmbeddedPostgres({ dataDir, database: 'postgres', fast: true });
const admin = new pg.Client({ connectionString: postgres.urlFor('postgres') });
await admin.connect();

/** A fresh database with the event store's tables, sealing on or off. */
async function database(name: string, sealed: boolean): Promise<string> {
  await admin.query(`CREATE DATABASE ${name}`);
  const url = postgres.urlFor(name);
  await (await createPostgresEventStore({ connectionString: url, poolSize: 1 })).close();
  // a setting of the database, so that every session (and the store's own migration) keeps it off
  if (!sealed) await admin.query(`ALTER DATABASE ${name} SET session_replication_role = replica`);
  return url;
}

async function commandLatency(url: string) {
  const store = await createPostgresEventStore({ connectionString: url, poolSize: 4 });
  const commands = createForumCommands(store, { adminEmails: [] });
  const meta = () => ({ actorId: who.userId, now: new Date(), correlationId: randomUUID(), causationId: null, requestId: null });
  const who = { userId: randomUUID(), email: 'timed@example.test', name: 'Timed Member', photoURL: 'https://img.example.test/t.png' };
  // a member (no free limit in the way)
  await store.append([
    {
      streamId: `user-${who.userId}`,
      expectedVersion: 'no_stream',
      events: [
        { type: 'UserRegistered', data: { ...who, registeredAt: new Date().toISOString() }, metadata: { ...meta(), schemaVersion: 1 } },
        {
          type: 'MembershipPurchased',
          data: {
            userId: who.userId,
            attemptId: randomUUID(),
            paymentReference: 'x',
            amountCents: 999,
            currency: 'USD',
            purchasedAt: new Date().toISOString(),
          },
          metadata: { ...meta(), schemaVersion: 1 },
        },
      ],
    },
  ]);
  const times: number[] = [];
  for (let i = 0; i < COMMANDS / 2; i++) {
    const postId = randomUUID();
    let started = performance.now();
    await commands.createPost(who, { postId, title: `Timed post ${i}`, description: 'A post that a member writes while the clock runs.', tags: [] }, meta());
    times.push(performance.now() - started);
    started = performance.now();
    await commands.addComment(who, { commentId: randomUUID(), postId, text: `A comment on post ${i}` }, meta());
    times.push(performance.now() - started);
  }
  await store.close();
  const timed = times.slice(Math.floor(times.length / 10)); // the first tenth warms up
  return { median: percentile(timed, 50), p95: percentile(timed, 95) };
}

/** The sealing rewrite of a log stored plain, as the store's migration runs it. */
async function rewrite(name: string, url: string) {
  await admin.query(`ALTER DATABASE ${name} RESET session_replication_role`);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  // as a log stored by a build before sealing: the rewrite has not run on it
  await pool.query('DELETE FROM eventstore.migrations WHERE name = $1', [SEAL_REWRITE]);
  const started = performance.now();
  await migrateEventStore(pool);
  await pool.end();
  return (performance.now() - started) / 1000;
}

async function rebuildRate(url: string) {
  const loaded = await loadSyntheticLog(url, { events: EVENTS, seed: 16 });
  let out = '';
  const code = await runForumctl(['rebuild', '--all', '--no-verify'], url, { out: (t) => (out += t), err: (t) => (out += t) });
  if (code !== 0) throw new Error(out);
  const rate = /\(([\d,]+) events\/s\)/.exec(out)?.[1] ?? '?';
  return { loadSeconds: loaded.ms / 1000, rate };
}

try {
  for (const sealed of [false, true]) {
    const label = sealed ? 'sealed' : 'plain ';
    const latency = await commandLatency(await database(`latency_${sealed ? 'sealed' : 'plain'}`, sealed));
    const name = `rebuild_${sealed ? 'sealed' : 'plain'}`;
    const rebuild = await rebuildRate(await database(name, sealed));
    say(
      `${label}: command latency median ${ms(latency.median)}, p95 ${ms(latency.p95)}; ` +
        `${EVENTS.toLocaleString('en')} events loaded in ${rebuild.loadSeconds.toFixed(1)} s, rebuilt at ${rebuild.rate} events/s`,
    );
    if (!sealed) say(`the one-time rewrite sealed that plain log in ${(await rewrite(name, postgres.urlFor(name))).toFixed(1)} s`);
  }
} finally {
  await admin.end();
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
