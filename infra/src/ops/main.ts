/**
 * `npm run forumctl -- <command>`: against DATABASE_URL when set, else the
 * embedded forum's PostgreSQL in DATA_DIR (the running one of `npm start`, or
 * started just for this command and stopped after it); the event log in
 * KurrentDB at EVENTSTORE_URL when that is set.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventStoreUrl } from '@forum/platform';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { runForumctl } from './forumctl.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const io = {
  out: (t: string) => void process.stdout.write(t),
  err: (t: string) => void process.stderr.write(t),
  terminal: process.stderr.isTTY ? process.stderr : undefined,
  // Ctrl-C stops a rebuild where it is (its build keeps its checkpoint) instead of killing the process
  // mid-batch; other commands keep Ctrl-C's default
  interrupted: () => new Promise<void>((resolve) => process.once('SIGINT', () => resolve())),
};

const argv = process.argv.slice(2);
const eventStoreUrl = process.env.EVENTSTORE_URL || undefined;
if (eventStoreUrl && !EventStoreUrl.safeParse(eventStoreUrl).success) {
  io.err(`EVENTSTORE_URL must be a KurrentDB connection string such as kurrentdb://host:2113?tls=false\n`);
  process.exit(2);
}
let code: number;
if (process.env.DATABASE_URL) {
  code = await runForumctl(argv, process.env.DATABASE_URL, io, eventStoreUrl);
} else {
  const dataDir = path.resolve(root, process.env.DATA_DIR || '.data');
  const running = await runningEmbeddedUrl(dataDir, 'forum');
  if (running) code = await runForumctl(argv, running, io, eventStoreUrl);
  // a restore makes a new forum's database; every other command needs one
  else if (!existsSync(path.join(dataDir, 'pg', 'PG_VERSION')) && argv[0] !== 'restore') {
    io.err(`No forum data in ${dataDir}: run npm start once, or set DATABASE_URL.\n`);
    code = 1;
  } else {
    const postgres = await startEmbeddedPostgres({ dataDir, database: 'forum' });
    try {
      code = await runForumctl(argv, postgres.url, io, eventStoreUrl);
    } finally {
      await postgres.stop();
    }
  }
}
process.exit(code);
