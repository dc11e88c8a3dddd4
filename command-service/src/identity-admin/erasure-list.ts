import { open, readFile } from 'node:fs/promises';
import { ERASURES_CHANNEL } from '@forum/eventstore';
import { startWakeLoop, type Knex, type Logger } from '@forum/platform';

export interface ErasureListOptions {
  /** The event store's database (keystore.erasures). */
  readonly db: Knex;
  /** For the session that listens for erasures as they commit. */
  readonly connectionString: string;
  /** The file (ERASURE_LIST): on a disk apart from the database's, or copied off the machine. */
  readonly file: string;
  readonly logger: Logger;
  /** How often it looks anyway (a notification missed). */
  readonly intervalMs?: number;
}

/**
 * Keeps the erasure list (docs/operations.md#backups): every member the forum erased, one NDJSON
 * line each (`subject`, `contentErased`, `position`, `erasedAt`), appended and synced to disk as
 * each erasure commits (it hears of one by LISTEN, and looks every `intervalMs` too). The list
 * outlives the database: `forumctl restore <backup> --erasures <list>` leaves out the keys and
 * accounts of everyone on it, so a restore never brings back a key an erasure destroyed after the
 * backup was taken. Each process that is given a list keeps all of it (a shared file may then hold
 * a line twice: a restore reads it as a set). A line is appended moments after the erasure commits:
 * losing the database in those moments loses it from the list too.
 */
export function startErasureList(options: ErasureListOptions): { stop(): Promise<void> } {
  const { db, file } = options;
  const log = options.logger.child({ component: 'erasure-list' });
  let listed: Set<string> | null = null;

  async function pass(): Promise<void> {
    if (!listed) {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      listed = new Set(
        text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => (JSON.parse(line) as { subject: string }).subject),
      );
    }
    const { rows } = await db.raw<{ rows: { subject: string; contentErased: boolean; position: string; erasedAt: string }[] }>(
      `SELECT subject, content_erased AS "contentErased", position::text AS position,
         to_char(erased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "erasedAt"
       FROM keystore.erasures ORDER BY position, subject`,
    );
    const known = listed;
    const missing = rows.filter((row) => !known.has(row.subject));
    if (missing.length === 0) return;
    const handle = await open(file, 'a', 0o600);
    try {
      await handle.appendFile(missing.map((row) => JSON.stringify(row) + '\n').join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    for (const row of missing) known.add(row.subject);
    log.info({ erasures: missing.length, file }, 'erasures added to the erasure list');
  }

  const loop = startWakeLoop({
    connectionString: options.connectionString,
    channels: [ERASURES_CHANNEL],
    applicationName: 'forum-erasure-list',
    logger: log,
    pollMs: options.intervalMs ?? 30_000,
    pass,
    failure: 'keeping the erasure list failed: erasures are not in it yet',
  });
  return { stop: () => loop.stop() };
}
