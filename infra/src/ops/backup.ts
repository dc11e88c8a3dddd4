import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type pg from 'pg';
import { importEventsInTransaction, exportEvents } from './log-file.ts';

/**
 * `forumctl backup <dir>` and `forumctl restore <dir>` (docs/operations.md#backups): a logical
 * backup of what a forum cannot rebuild, as files: the event log (sealed, as stored), the members'
 * keys, the erasures, and the embedded realm's accounts. Read models are not in it: a restore
 * rebuilds them from the log.
 *
 * One cut: everything is read in one REPEATABLE READ snapshot, and the log is taken below the
 * oldest transaction still open at that moment (`transaction_id < pg_snapshot_xmin`, as the event
 * store's readers read), so the backup holds the log exactly as a reader saw it at that point of
 * its order, and the keys and accounts of the same moment. A key is written in the transaction of
 * the first event it seals, so every event in the cut finds its key in the snapshot; a key leaves
 * only with an `AccountErased`, whose erasure row is in the same snapshot.
 */

export const BACKUP_FORMAT = 'forum-backup';
export const BACKUP_VERSION = 1;

export const BACKUP_FILES = {
  events: 'events.ndjson',
  keys: 'keys.ndjson',
  erasures: 'erasures.ndjson',
  idempotencyKeys: 'idempotency-keys.ndjson',
  accounts: 'accounts.ndjson',
  federatedIdentities: 'federated-identities.ndjson',
} as const;
type Part = keyof typeof BACKUP_FILES;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  takenAt: string;
  /** The highest position in the backup's log. */
  position: string;
  /** The backup's cut in the log's order: the events of transactions below this transaction id (xid8). */
  cut: string;
  counts: Record<Part, number>;
  files: Record<string, { sha256: string; bytes: number }>;
}

/** One line of an erasure list (`forumctl erasures`, a backup's erasures.ndjson). */
export interface ErasureEntry {
  subject: string;
  contentErased: boolean;
  position: string;
  erasedAt: string;
  realmRemovedAt?: string | null;
}

/** A damaged or unreadable backup: restore refuses it before it writes anything. */
export class BackupRefused extends Error {}

/** A file written line by line, hashed as written, synced to disk when closed. */
function hashedFile(file: string) {
  const stream: WriteStream = createWriteStream(file);
  const hash = createHash('sha256');
  let bytes = 0;
  let lines = 0;
  return {
    write(line: string): Promise<void> | void {
      hash.update(line);
      bytes += Buffer.byteLength(line);
      lines++;
      // events.once removes its listeners either way (a listener per wait would pile up)
      if (!stream.write(line)) return once(stream, 'drain').then(() => {});
    },
    async close() {
      await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
      const handle = await open(file, 'r');
      await handle.sync().finally(() => handle.close());
      return { sha256: hash.digest('hex'), bytes, lines };
    },
  };
}

/** Rows of `sql` (which takes the last key as $1 and pages by it) page by page: tables of any size in one snapshot. */
async function* paged<T extends pg.QueryResultRow>(client: pg.ClientBase, sql: string, keyOf: (row: T) => string, first: string) {
  for (let after = first; ;) {
    const { rows } = await client.query<T>(sql, [after]);
    yield* rows;
    if (rows.length < PAGE) return;
    after = keyOf(rows.at(-1)!);
  }
}
const PAGE = 5000;

/** The cut (an xid8, digits only) as an SQL number. */
const literalCut = (cut: string) => {
  if (!/^\d+$/.test(cut)) throw new Error(`not a transaction id: ${cut}`);
  return `${cut}::numeric`;
};

const exists = async (client: pg.ClientBase, table: string) =>
  (await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [table])).rows[0]!.found;

/** Takes a backup into `dir` (a new or empty folder); the manifest is written last, so a backup without one is incomplete. */
export async function takeBackup(client: pg.ClientBase, dir: string): Promise<BackupManifest> {
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length > 0) throw new BackupRefused(`The backup folder ${dir} is not empty: back up into a new folder`);
  const files: BackupManifest['files'] = {};
  const counts = {} as Record<Part, number>;
  let position = '0';
  let cut: string;
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    // the first statement takes the snapshot that every read below shares
    cut = (await client.query<{ cut: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS cut')).rows[0]!.cut;
    const part = async (name: Part, fill: (write: (line: string) => Promise<void> | void) => Promise<void>) => {
      const file = hashedFile(path.join(dir, BACKUP_FILES[name]));
      await fill((line) => file.write(line));
      const { sha256, bytes, lines } = await file.close();
      files[BACKUP_FILES[name]] = { sha256, bytes };
      counts[name] = lines;
    };
    await part('events', async (write) => {
      await exportEvents(
        client,
        (line) => {
          position = /^\{"position":(\d+)/.exec(line)![1]!;
          return write(line);
        },
        {},
        { sealed: true, below: cut },
      );
    });
    await part('keys', async (write) => {
      const rows = paged<{ key: string; line: string }>(
        client,
        `SELECT subject || E'\\n' || kind AS key,
           json_build_object('subject', subject, 'kind', kind, 'material', encode(material, 'base64'), 'createdAt', created_at)::text AS line
         FROM keystore.subject_keys WHERE subject || E'\\n' || kind > $1 ORDER BY subject || E'\\n' || kind LIMIT ${PAGE}`,
        (row) => row.key,
        '',
      );
      for await (const row of rows) await write(row.line + '\n');
    });
    await part('erasures', async (write) => {
      for await (const entry of erasureRows(client)) await write(JSON.stringify(entry) + '\n');
    });
    // the answers of commands whose events are in the cut (a retry after the restore answers them
    // again): the key is written in its command's transaction, so its row's xmin is that transaction
    await part('idempotencyKeys', async (write) => {
      const rows = paged<{ key: string; line: string }>(
        client,
        `SELECT key, json_build_object('key', key, 'answer', answer, 'createdAt', created_at)::text AS line FROM eventstore.idempotency_keys
         WHERE key > $1 AND answer IS NOT NULL AND age(xmin) > age((${literalCut(cut)} % 4294967296)::text::xid) ORDER BY key LIMIT ${PAGE}`,
        (row) => row.key,
        '',
      );
      for await (const row of rows) await write(row.line + '\n');
    });
    const realm = await exists(client, 'identity.accounts');
    await part('accounts', async (write) => {
      if (!realm) return;
      const rows = paged<{ id: string; line: string }>(
        client,
        `SELECT id::text, row_to_json(a)::text AS line FROM identity.accounts a WHERE id::text > $1 ORDER BY id::text LIMIT ${PAGE}`,
        (row) => row.id,
        '',
      );
      for await (const row of rows) await write(row.line + '\n');
    });
    await part('federatedIdentities', async (write) => {
      if (!realm) return;
      const rows = paged<{ key: string; line: string }>(
        client,
        `SELECT provider || E'\\n' || subject AS key, row_to_json(f)::text AS line FROM identity.federated_identities f
         WHERE provider || E'\\n' || subject > $1 ORDER BY provider || E'\\n' || subject LIMIT ${PAGE}`,
        (row) => row.key,
        '',
      );
      for await (const row of rows) await write(row.line + '\n');
    });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  const manifest: BackupManifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, takenAt: new Date().toISOString(), position, cut, counts, files };
  const temporary = path.join(dir, 'manifest.json.partial');
  await writeFile(temporary, JSON.stringify(manifest, null, 2) + '\n', { flush: true });
  await rename(temporary, path.join(dir, 'manifest.json'));
  return manifest;
}

/** The erasures the database records (`keystore.erasures`), oldest first, as an erasure list's lines. */
export async function* erasureRows(client: pg.ClientBase): AsyncGenerator<ErasureEntry> {
  const rows = paged<ErasureEntry & { key: string }>(
    client,
    `SELECT lpad(position::text, 20, '0') || subject AS key, subject, content_erased AS "contentErased", position::text AS position,
       to_char(erased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "erasedAt",
       to_char(realm_removed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "realmRemovedAt"
     FROM keystore.erasures WHERE lpad(position::text, 20, '0') || subject > $1 ORDER BY 1 LIMIT ${PAGE}`,
    (row) => row.key,
    '',
  );
  for await (const { key: _key, ...entry } of rows) yield entry;
}

/** The backup's manifest, each file checked against its size and checksum; refused with the reason. */
export async function checkBackup(dir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupRefused(
      `${dir} holds no readable manifest.json (${error instanceof Error ? error.message : String(error)}): not a backup, or an incomplete one`,
    );
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION)
    throw new BackupRefused(`${dir}/manifest.json is not a ${BACKUP_FORMAT} of version ${BACKUP_VERSION} (${manifest.format} ${manifest.version})`);
  for (const name of Object.values(BACKUP_FILES)) {
    const expected = manifest.files[name];
    if (!expected) throw new BackupRefused(`the backup's manifest does not list ${name}: the backup is incomplete`);
    const file = path.join(dir, name);
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) throw new BackupRefused(`the backup file ${name} is missing`);
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    if (size !== expected.bytes || hash.digest('hex') !== expected.sha256)
      throw new BackupRefused(
        `the backup file ${name} does not match its checksum in manifest.json: the backup is damaged (or was changed); restore another one`,
      );
  }
  return manifest;
}

const lines = (file: string) => () => createInterface({ input: createReadStream(file), crlfDelay: Infinity });

/** The erasures of an erasure list (a file, or a backup's folder: its erasures.ndjson). */
export async function readErasureList(file: string): Promise<ErasureEntry[]> {
  const target = (await stat(file)).isDirectory() ? path.join(file, BACKUP_FILES.erasures) : file;
  const entries: ErasureEntry[] = [];
  for await (const line of lines(target)()) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as Partial<ErasureEntry>;
    if (typeof entry.subject !== 'string' || typeof entry.contentErased !== 'boolean')
      throw new BackupRefused(`${target} is not an erasure list: a line without subject and contentErased`);
    entries.push({ subject: entry.subject, contentErased: entry.contentErased, position: String(entry.position ?? 0), erasedAt: entry.erasedAt ?? '' });
  }
  return entries;
}

/** What a database holds that a restore would overwrite; empty: it may be restored into. */
export async function contentsOf(client: pg.ClientBase): Promise<string[]> {
  const found: string[] = [];
  for (const [table, what] of [
    ['eventstore.events', 'events'],
    ['keystore.subject_keys', 'keys'],
    ['keystore.erasures', 'erasures'],
    ['identity.accounts', 'accounts'],
  ] as const) {
    if (!(await exists(client, table))) continue;
    const { rows } = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
    if (rows[0]!.n !== '0') found.push(`${rows[0]!.n} ${what}`);
  }
  return found;
}

/**
 * Loads a checked backup into an empty database whose schemas exist, in one transaction: the
 * erasures first (the backup's and the lists'), so that no key of an erased member is ever
 * written, not even for a moment; the keys of everyone else; the log (an `AccountErased` in it
 * erases again as it is inserted); the accounts of the members not erased. Answers the members
 * erased since the backup's cut, whose erasure the caller applies again as an event.
 */
export async function loadBackup(
  client: pg.ClientBase,
  dir: string,
  erasures: readonly ErasureEntry[],
): Promise<{ events: number; erasedSince: ErasureEntry[] }> {
  const erased = new Map<string, ErasureEntry>();
  const backupErasures = await readErasureList(path.join(dir, BACKUP_FILES.erasures));
  for (const entry of [...backupErasures, ...erasures]) if (!erased.has(entry.subject)) erased.set(entry.subject, entry);
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO keystore.erasures (subject, content_erased, position, erased_at, realm_removed_at)
       SELECT e.subject, e."contentErased", e.position::bigint, coalesce(nullif(e."erasedAt", '')::timestamptz, now()), nullif(e."realmRemovedAt", '')::timestamptz
       FROM jsonb_to_recordset($1::jsonb) AS e(subject text, "contentErased" boolean, position text, "erasedAt" text, "realmRemovedAt" text)
       ON CONFLICT (subject) DO NOTHING`,
      [JSON.stringify([...erased.values()])],
    );
    await inBatches(lines(path.join(dir, BACKUP_FILES.keys)), (batch) =>
      client.query(
        `INSERT INTO keystore.subject_keys (subject, kind, material, created_at)
         SELECT k.subject, k.kind, decode(k.material, 'base64'), k."createdAt" FROM jsonb_to_recordset($1::jsonb) AS k(subject text, kind text, material text, "createdAt" timestamptz)
         -- as an AccountErased destroys them: the identity key, and the content key when their content went
         WHERE NOT EXISTS (SELECT 1 FROM keystore.erasures e WHERE e.subject = k.subject AND (k.kind = 'identity' OR e.content_erased))`,
        [batch],
      ),
    );
    const events = await importEventsInTransaction(client, lines(path.join(dir, BACKUP_FILES.events)));
    await inBatches(lines(path.join(dir, BACKUP_FILES.idempotencyKeys)), (batch) =>
      client.query(
        `INSERT INTO eventstore.idempotency_keys (key, answer, created_at)
         SELECT k.key, k.answer, k."createdAt" FROM jsonb_to_recordset($1::jsonb) AS k(key text, answer jsonb, "createdAt" timestamptz)`,
        [batch],
      ),
    );
    if (await exists(client, 'identity.accounts')) {
      await inBatches(lines(path.join(dir, BACKUP_FILES.accounts)), (batch) =>
        client.query(
          `INSERT INTO identity.accounts SELECT * FROM jsonb_populate_recordset(null::identity.accounts, $1::jsonb) a
           WHERE NOT EXISTS (SELECT 1 FROM keystore.erasures e WHERE e.subject = a.id::text)`,
          [batch],
        ),
      );
      await inBatches(lines(path.join(dir, BACKUP_FILES.federatedIdentities)), (batch) =>
        client.query(
          `INSERT INTO identity.federated_identities SELECT f.* FROM jsonb_populate_recordset(null::identity.federated_identities, $1::jsonb) f
           WHERE EXISTS (SELECT 1 FROM identity.accounts a WHERE a.id = f.account_id)`,
          [batch],
        ),
      );
    }
    const erasedSince = await erasuresNotInLog(client, erased);
    await client.query('COMMIT');
    return { events, erasedSince };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** The lines of a file as JSON arrays of up to 1000 rows, each given to `load`. */
async function inBatches(openLines: () => AsyncIterable<string>, load: (batch: string) => Promise<unknown>) {
  let batch: string[] = [];
  for await (const line of openLines()) {
    if (line.trim() === '') continue;
    batch.push(line);
    if (batch.length >= 1000) {
      await load(`[${batch.join(',')}]`);
      batch = [];
    }
  }
  if (batch.length > 0) await load(`[${batch.join(',')}]`);
}

/** The erased whose stream is in the log without their AccountErased: their erasure is to be applied again as an event. */
async function erasuresNotInLog(client: pg.ClientBase, listed: ReadonlyMap<string, ErasureEntry>): Promise<ErasureEntry[]> {
  const { rows } = await client.query<{ subject: string; contentErased: boolean }>(
    `SELECT e.subject, e.content_erased AS "contentErased" FROM keystore.erasures e
     WHERE EXISTS (SELECT 1 FROM eventstore.streams s WHERE s.stream_id = 'user-' || e.subject)
       AND NOT EXISTS (SELECT 1 FROM eventstore.events v WHERE v.stream_id = 'user-' || e.subject AND v.type = 'AccountErased')`,
  );
  return rows.map((row) => listed.get(row.subject) ?? { subject: row.subject, contentErased: row.contentErased, position: '0', erasedAt: '' });
}

/**
 * An erasure list applied to a database restored by other means (a physical backup, a point in
 * time recovery): in one transaction, every listed member the database does not know as erased is
 * recorded so, and their keys are destroyed as their AccountErased would; answers those whose
 * erasure the caller appends again as an event (their stream is in the log). Their accounts leave
 * the identity provider as any erasure's do: the forum's erasure reactor removes them.
 */
export async function destroyListedKeys(client: pg.ClientBase, entries: readonly ErasureEntry[]): Promise<{ recorded: number; erasedSince: ErasureEntry[] }> {
  const listed = new Map(entries.map((entry) => [entry.subject, entry]));
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ subject: string }>(
      `INSERT INTO keystore.erasures (subject, content_erased, position, erased_at)
       SELECT e.subject, e."contentErased", e.position::bigint, coalesce(nullif(e."erasedAt", '')::timestamptz, now())
       FROM jsonb_to_recordset($1::jsonb) AS e(subject text, "contentErased" boolean, position text, "erasedAt" text)
       ON CONFLICT (subject) DO NOTHING RETURNING subject`,
      [JSON.stringify([...listed.values()])],
    );
    await client.query(
      `DELETE FROM keystore.subject_keys k USING keystore.erasures e WHERE e.subject = k.subject AND (k.kind = 'identity' OR e.content_erased)`,
    );
    const erasedSince = await erasuresNotInLog(client, listed);
    await client.query('COMMIT');
    return { recorded: rows.length, erasedSince };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
