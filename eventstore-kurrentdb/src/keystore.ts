import { PERSONAL_DATA, SEALED_KEY, type SubjectKey } from '@forum/contracts';
import { ERASURES_CHANNEL, erasuresIn, migrateEventStore, type ErasedAs, type NewEvent } from '@forum/eventstore';
import { openData, sealData } from '@forum/eventstore/sealed-box';
import { createPgPool } from '@forum/platform';

/**
 * Personal data of events kept in KurrentDB (docs/security/erasure.md, "The KurrentDB adapter"):
 * the keys stay in PostgreSQL's `keystore` schema, as with the PostgreSQL store; the adapter seals
 * in Node before an append and opens in Node after a read, in the sealed boxes' one format
 * (`@forum/eventstore/sealed-box`), so either store reads the other's events. No key is kept past
 * the call that fetched it.
 */
export interface Keystore {
  /** The events with their personal fields sealed under their subjects' keys (made the first time). */
  seal(events: readonly NewEvent[]): Promise<NewEvent[]>;
  /** Each data opened with the keys that still exist; erased fields as `erasedAs` says. */
  open<T extends { data: unknown }>(events: readonly T[], erasedAs: ErasedAs, opened?: (event: T) => boolean): Promise<T[]>;
  /**
   * Before an `AccountErased` is appended: destroys the member's keys (the content key too when
   * their content goes) and records the erasure. KurrentDB and PostgreSQL share no transaction, so
   * the keys go first: a crash before the append leaves an erasure without its event, never an
   * event whose member can still be read.
   */
  erase(events: readonly NewEvent[]): Promise<void>;
  /** After the `AccountErased` is in the log: its position on the erasure's row, and the erasure reactor told. */
  erased(events: readonly NewEvent[], position: bigint): Promise<void>;
  close(): Promise<void>;
}

type Data = Record<string, unknown>;
const isData = (value: unknown): value is Data => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A keystore on the PostgreSQL database at `connectionString`; its schema is created as the PostgreSQL store creates it. */
export async function openKeystore(connectionString: string): Promise<Keystore> {
  const pool = createPgPool({ connectionString, max: 4, application_name: 'forum-eventstore-keystore' });
  // the keystore schema and functions (and the PostgreSQL log's own tables, which stay empty here)
  await migrateEventStore(pool);

  return {
    async seal(events) {
      const subjects = new Set<string>();
      for (const event of events) {
        const spec = PERSONAL_DATA[`${event.type}@${event.metadata.schemaVersion}`];
        const subject = spec && isData(event.data) ? event.data[spec.subject] : undefined;
        if (typeof subject === 'string') subjects.add(subject);
      }
      if (subjects.size === 0) return [...events];
      const { rows } = await pool.query<{ subject: string; keys: Buffer[] }>('SELECT s AS subject, keystore.keys_for(s) AS keys FROM unnest($1::text[]) AS s', [
        [...subjects],
      ]);
      const keys = new Map(rows.map((row) => [row.subject, row.keys]));
      const keyFor = (subject: string, kind: SubjectKey) => keys.get(subject)![kind === 'identity' ? 0 : 1]!;
      return events.map((event) => (isData(event.data) ? { ...event, data: sealData(event.type, event.metadata.schemaVersion, event.data, keyFor) } : event));
    },

    async open(events, erasedAs, opened = () => true) {
      const boxes = (event: { data: unknown }) =>
        isData(event.data) && Array.isArray(event.data[SEALED_KEY]) ? (event.data[SEALED_KEY] as { s: string }[]) : [];
      const subjects = new Set(events.filter(opened).flatMap((event) => boxes(event).map((box) => box.s)));
      if (subjects.size === 0) return [...events];
      const { rows } = await pool.query<{ subject: string; kind: SubjectKey; material: Buffer }>(
        'SELECT subject, kind, material FROM keystore.subject_keys WHERE subject = ANY ($1::text[])',
        [[...subjects]],
      );
      const keys = new Map(rows.map((row) => [`${row.subject}\n${row.kind}`, row.material]));
      return events.map((event) =>
        opened(event) && boxes(event).length > 0
          ? { ...event, data: openData(event.data as Data, (subject, kind) => keys.get(`${subject}\n${kind}`), erasedAs) }
          : event,
      );
    },

    async erase(events) {
      for (const { subject, contentErased } of erasuresIn(events)) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(`DELETE FROM keystore.subject_keys WHERE subject = $1 AND (kind = 'identity' OR $2)`, [subject, contentErased]);
          // position 0 until the event is in the log (`erased`)
          await client.query('INSERT INTO keystore.erasures (subject, content_erased, position) VALUES ($1, $2, 0) ON CONFLICT (subject) DO NOTHING', [
            subject,
            contentErased,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      }
    },

    async erased(events, position) {
      for (const { subject } of erasuresIn(events)) {
        await pool.query('UPDATE keystore.erasures SET position = $2 WHERE subject = $1 AND position = 0', [subject, position.toString()]);
        await pool.query('SELECT pg_notify($1, $2)', [ERASURES_CHANNEL, subject]);
      }
    },

    close: () => pool.end(),
  };
}
