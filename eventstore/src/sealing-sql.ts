import { AccountErased, ERASED_MARK, ERASED_VALUES, PERSONAL_DATA, PERSONAL_DATA_TYPES, SEALED_KEY, SUBJECT_KEYS } from '@forum/contracts';
import type pg from 'pg';

/**
 * Crypto-shredding in the event store's database (docs/security/erasure.md). A member's
 * personal data is sealed as it is written, under keys that live in `keystore.subject_keys`,
 * and opened as it is read; keys never leave PostgreSQL. Erasing a member (an `AccountErased`
 * event) deletes their keys in the same transaction, and from then on every copy of their data
 * reads as erased.
 *
 * A sealed box: AES-256-CBC (PKCS#7 padding, a random IV) of the JSON of the fields it holds,
 * then HMAC-SHA-256 over subject, key kind, IV and ciphertext; `c` is base64 of IV ‖ ciphertext
 * ‖ MAC. pgcrypto has no GCM; sealed-box.ts reads and writes the same format in Node.
 */

/**
 * `data` (a jsonb expression) opened: its sealed fields back in place, erased ones as `mode` (a text
 * expression of an ErasedAs) says; with `onlyWhere` (an SQL condition), opened only where it holds.
 */
export const unsealed = (data: string, mode = "'placeholder'", onlyWhere?: string) =>
  // not the ? operator: knex reads it as a placeholder
  `CASE WHEN ${data} -> '${SEALED_KEY}' IS NOT NULL${onlyWhere ? ` AND (${onlyWhere})` : ''} THEN eventstore.unseal(${data}, ${mode}) ELSE ${data} END`;

/** Where an erasure is announced when it commits (its subject): the erasure reactor removes the identity provider's account. */
export const ERASURES_CHANNEL = 'forum_erasures';

/** The sealing rewrite of events stored before sealing existed: what `eventstore.migrations` records once it is done. */
export const SEAL_REWRITE = 'seal-personal-data';
/** Events sealed per transaction of the rewrite. */
const REWRITE_BATCH = 5000;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The schema pgcrypto is installed in (created in the current schema, usually public, when missing). */
async function pgcryptoSchema(client: pg.ClientBase): Promise<string> {
  await client.query('CREATE EXTENSION IF NOT EXISTS pgcrypto');
  const { rows } = await client.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pgcrypto'`,
  );
  return rows[0]!.schema;
}

/**
 * The body of `eventstore.seal` per stored type and version: the subject's keys, then one box per
 * key holding the fields the event has (an optional one may be absent), taken out of the data.
 */
function sealCases(): string {
  return Object.entries(PERSONAL_DATA)
    .map(([key, spec]) => {
      const boxes = SUBJECT_KEYS.filter((kind) => spec.keys[kind]).map((kind) => {
        const fields = Object.entries(spec.keys[kind]!);
        const at = (path: string) => `p_data #> ${literal(`{${path.split('.').join(',')}}`)}`;
        const present = `jsonb_strip_nulls(jsonb_build_object(${fields.map(([path, what]) => `${literal(path)}, CASE WHEN ${at(path)} IS NOT NULL THEN ${literal(what)} END`).join(', ')}))`;
        const plain = `jsonb_strip_nulls(jsonb_build_object(${fields.map(([path]) => `${literal(path)}, ${at(path)}`).join(', ')}))`;
        return `v_fields := ${present};
          IF v_fields <> '{}' THEN v_boxes := v_boxes || eventstore.seal_box(v_subject, ${literal(kind)}, v_keys[${SUBJECT_KEYS.indexOf(kind) + 1}], v_fields, ${plain}); END IF;`;
      });
      const removed = Object.values(spec.keys)
        .flatMap((fields) => Object.keys(fields))
        .map((path) => ` #- ${literal(`{${path.split('.').join(',')}}`)}`)
        .join('');
      return `WHEN ${literal(key)} THEN
          v_subject := p_data ->> ${literal(spec.subject)};
          IF v_subject IS NULL THEN RETURN p_data; END IF;
          v_keys := keystore.keys_for(v_subject);
          ${boxes.join('\n          ')}
          IF v_boxes = '[]' THEN RETURN p_data; END IF;
          RETURN (p_data${removed}) || jsonb_build_object('${SEALED_KEY}', v_boxes);`;
    })
    .join('\n        ');
}

/**
 * Creates (or brings up to date) the key store, the sealing functions and the triggers that seal
 * every event written and erase a member with their `AccountErased`; run under the event store's
 * schema lock, after its tables exist.
 */
export async function migrateSealing(client: pg.ClientBase): Promise<void> {
  const crypto = `"${(await pgcryptoSchema(client)).replaceAll('"', '""')}"`;
  const settings = JSON.stringify({ erased: ERASED_VALUES, mark: ERASED_MARK });
  const types = PERSONAL_DATA_TYPES.map(literal).join(', ');
  const mac = (subject: string, kind: string, key: string) =>
    `${crypto}.hmac(convert_to(${subject} || E'\\n' || ${kind} || E'\\n', 'UTF8') || v_iv || v_ct, substring(${key} from 33 for 32), 'sha256')`;
  await client.query(`
    CREATE SCHEMA IF NOT EXISTS keystore;
    -- a member's keys: 32 bytes for AES-256, 32 for HMAC-SHA-256; deleted for real when they are erased
    CREATE TABLE IF NOT EXISTS keystore.subject_keys (
      subject text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('identity', 'content')),
      material bytea NOT NULL CHECK (length(material) = 64),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (subject, kind)
    );
    -- vacuumed as soon as a row is dead: a destroyed key leaves the table's pages early
    ALTER TABLE keystore.subject_keys SET (autovacuum_vacuum_threshold = 0, autovacuum_vacuum_scale_factor = 0);
    -- one row per erased member, written with the event: no key is made for them again, and the
    -- identity realm's removal of their account is done from here (realm_removed_at)
    CREATE TABLE IF NOT EXISTS keystore.erasures (
      subject text PRIMARY KEY,
      content_erased boolean NOT NULL,
      erased_at timestamptz NOT NULL DEFAULT now(),
      position bigint NOT NULL,
      realm_removed_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text
    );
    CREATE INDEX IF NOT EXISTS erasures_pending ON keystore.erasures (erased_at) WHERE realm_removed_at IS NULL;
    CREATE TABLE IF NOT EXISTS eventstore.migrations (name text PRIMARY KEY, completed_at timestamptz NOT NULL DEFAULT now(), detail jsonb);

    -- what erased fields read as, per what they are ('placeholder') and to people ('marked')
    CREATE OR REPLACE FUNCTION eventstore.sealing_settings() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $fn$ SELECT ${literal(settings)}::jsonb $fn$;

    -- a subject's two keys (identity, content), made the first time; for an erased subject keys
    -- that are never stored (what they seal reads as erased)
    CREATE OR REPLACE FUNCTION keystore.keys_for(p_subject text) RETURNS bytea[] LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE v_identity bytea; v_content bytea;
    BEGIN
      SELECT (array_agg(material) FILTER (WHERE kind = 'identity'))[1], (array_agg(material) FILTER (WHERE kind = 'content'))[1]
        INTO v_identity, v_content FROM keystore.subject_keys WHERE subject = p_subject;
      IF v_identity IS NOT NULL AND v_content IS NOT NULL THEN RETURN ARRAY[v_identity, v_content]; END IF;
      IF EXISTS (SELECT 1 FROM keystore.erasures WHERE subject = p_subject) THEN
        RETURN ARRAY[coalesce(v_identity, ${crypto}.gen_random_bytes(64)), coalesce(v_content, ${crypto}.gen_random_bytes(64))];
      END IF;
      INSERT INTO keystore.subject_keys (subject, kind, material)
        VALUES (p_subject, 'identity', ${crypto}.gen_random_bytes(64)), (p_subject, 'content', ${crypto}.gen_random_bytes(64))
        ON CONFLICT (subject, kind) DO NOTHING;
      SELECT (array_agg(material) FILTER (WHERE kind = 'identity'))[1], (array_agg(material) FILTER (WHERE kind = 'content'))[1]
        INTO v_identity, v_content FROM keystore.subject_keys WHERE subject = p_subject;
      RETURN ARRAY[v_identity, v_content];
    END $fn$;

    -- a box: the JSON of its fields encrypted under a key of the subject, with the MAC
    CREATE OR REPLACE FUNCTION eventstore.seal_box(p_subject text, p_kind text, p_key bytea, p_fields jsonb, p_plain jsonb) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE v_iv bytea := ${crypto}.gen_random_bytes(16); v_ct bytea;
    BEGIN
      v_ct := ${crypto}.encrypt_iv(convert_to(p_plain::text, 'UTF8'), substring(p_key from 1 for 32), v_iv, 'aes-cbc/pad:pkcs');
      RETURN jsonb_build_object('s', p_subject, 'k', p_kind, 'f', p_fields,
        'c', translate(encode(v_iv || v_ct || ${mac('p_subject', 'p_kind', 'p_key')}, 'base64'), E'\\n', ''));
    END $fn$;

    -- an event's data with its personal fields (per type and stored version, contracts' PERSONAL_DATA)
    -- moved into sealed boxes, one per key; written out per type, so that no loop runs a query
    CREATE OR REPLACE FUNCTION eventstore.seal(p_type text, p_version text, p_data jsonb) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE v_subject text; v_keys bytea[]; v_fields jsonb; v_boxes jsonb := '[]';
    BEGIN
      IF p_data ? '${SEALED_KEY}' THEN RETURN p_data; END IF;
      CASE p_type || '@' || coalesce(p_version, '?')
        ${sealCases()}
        ELSE RETURN p_data;
      END CASE;
    END $fn$;

    -- the data with its sealed fields back in place: opened while the key exists, else as erased
    -- ('placeholder': what each field is erased to; 'marked': the mark). The boxes of an event are
    -- its one subject's: their keys are read in one look.
    CREATE OR REPLACE FUNCTION eventstore.unseal(p_data jsonb, p_mode text DEFAULT 'placeholder') RETURNS jsonb LANGUAGE plpgsql STABLE AS $fn$
    DECLARE
      v_boxes jsonb := p_data -> '${SEALED_KEY}'; v_box jsonb; v_keys bytea[]; v_kinds text[]; v_key bytea;
      v_raw bytea; v_n integer; v_iv bytea; v_ct bytea; v_opened jsonb; v_path text; v_value jsonb;
    BEGIN
      IF v_boxes IS NULL THEN RETURN p_data; END IF;
      p_data := p_data - '${SEALED_KEY}';
      SELECT array_agg(material), array_agg(kind) INTO v_keys, v_kinds FROM keystore.subject_keys WHERE subject = v_boxes -> 0 ->> 's';
      FOR i IN 0 .. jsonb_array_length(v_boxes) - 1 LOOP
        v_box := v_boxes -> i;
        v_key := CASE WHEN v_box ->> 's' = v_boxes -> 0 ->> 's' THEN v_keys[array_position(v_kinds, v_box ->> 'k')] END;
        IF v_key IS NOT NULL THEN
          v_raw := decode(v_box ->> 'c', 'base64');
          v_n := length(v_raw);
          v_iv := substring(v_raw from 1 for 16);
          v_ct := substring(v_raw from 17 for v_n - 48);
          IF ${mac("(v_box ->> 's')", "(v_box ->> 'k')", 'v_key')} <> substring(v_raw from v_n - 31) THEN
            RAISE EXCEPTION 'a sealed box of subject % does not match its key: the event was altered', v_box ->> 's' USING ERRCODE = 'data_corrupted';
          END IF;
          v_opened := convert_from(${crypto}.decrypt_iv(v_ct, substring(v_key from 1 for 32), v_iv, 'aes-cbc/pad:pkcs'), 'UTF8')::jsonb;
        ELSE
          SELECT jsonb_object_agg(key, CASE WHEN p_mode = 'marked' THEN eventstore.sealing_settings() -> 'mark' ELSE eventstore.sealing_settings() -> 'erased' -> value END)
            INTO v_opened FROM jsonb_each_text(v_box -> 'f');
        END IF;
        IF strpos((v_box -> 'f')::text, '.') = 0 THEN
          p_data := p_data || v_opened;
        ELSE
          -- a nested field ('changes.name'): set in its place, its parent kept
          FOR v_path, v_value IN SELECT key, value FROM jsonb_each(v_opened) LOOP
            p_data := jsonb_set(p_data, string_to_array(v_path, '.'), v_value, true);
          END LOOP;
        END IF;
      END LOOP;
      RETURN p_data;
    END $fn$;

    -- every event written is sealed, whoever writes it (the appends, an import, a test's fixture)
    CREATE OR REPLACE FUNCTION eventstore.seal_event() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN NEW.data := eventstore.seal(NEW.type, NEW.metadata ->> 'schemaVersion', NEW.data); RETURN NEW; END $fn$;
    CREATE OR REPLACE TRIGGER events_seal BEFORE INSERT ON eventstore.events
      FOR EACH ROW WHEN (NEW.type IN (${types})) EXECUTE FUNCTION eventstore.seal_event();

    -- an AccountErased destroys its member's keys in its own transaction (the content key too when their content went)
    CREATE OR REPLACE FUNCTION eventstore.erase_subject() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        DELETE FROM keystore.subject_keys
          WHERE subject = NEW.data ->> 'userId' AND (kind = 'identity' OR NEW.data ->> 'content' = 'erased');
        INSERT INTO keystore.erasures (subject, content_erased, position)
          VALUES (NEW.data ->> 'userId', NEW.data ->> 'content' = 'erased', NEW.global_position)
          ON CONFLICT (subject) DO NOTHING;
        PERFORM pg_notify('${ERASURES_CHANNEL}', NEW.data ->> 'userId');
        RETURN NULL;
      END $fn$;
    CREATE OR REPLACE TRIGGER events_erase AFTER INSERT ON eventstore.events
      FOR EACH ROW WHEN (NEW.type = ${literal(AccountErased.type)}) EXECUTE FUNCTION eventstore.erase_subject();

    -- The log is append-only: no UPDATE, DELETE or TRUNCATE of events, by anyone, except the one
    -- sanctioned rewrite (sealing events stored before sealing existed), which a session declares
    -- and which may change nothing an event says: an unsealed row becomes one that opens to it.
    CREATE OR REPLACE FUNCTION eventstore.forbid_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'UPDATE' AND current_setting('eventstore.rewrite', true) = 'seal'
           AND (NEW.global_position, NEW.stream_id, NEW.stream_version, NEW.type, NEW.metadata, NEW.recorded_at, NEW.transaction_id)
               IS NOT DISTINCT FROM (OLD.global_position, OLD.stream_id, OLD.stream_version, OLD.type, OLD.metadata, OLD.recorded_at, OLD.transaction_id)
           AND NOT OLD.data ? '${SEALED_KEY}' AND NEW.data ? '${SEALED_KEY}' AND eventstore.unseal(NEW.data) = OLD.data THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'events are immutable';
      END $fn$;
  `);
}

/**
 * Seals the personal data of events stored before sealing existed, in place: the one sanctioned
 * rewrite of the log. Batch by batch, each in its own transaction (a crash keeps what is done;
 * sealed rows are skipped, so it resumes and repeats safely); recorded in `eventstore.migrations`
 * once no unsealed row is left, after which it is not looked for again. Answers how many events
 * it sealed now.
 */
export async function sealStoredEvents(client: pg.ClientBase): Promise<number> {
  const done = await client.query('SELECT 1 FROM eventstore.migrations WHERE name = $1', [SEAL_REWRITE]);
  if (done.rowCount) return 0;
  const readable = Object.keys(PERSONAL_DATA);
  let sealed = 0;
  let after = '0';
  for (;;) {
    await client.query('BEGIN');
    try {
      await client.query("SET LOCAL eventstore.rewrite TO 'seal'");
      // the next batch of unsealed events of a type with personal data, each sealed once; those
      // whose stored version (or shape) holds none to seal are passed over as they are
      const { rows } = await client.query<{ last: string | null; sealed: number }>(
        `WITH batch AS MATERIALIZED (
           SELECT global_position, eventstore.seal(type, metadata ->> 'schemaVersion', data) AS data FROM eventstore.events
           WHERE type = ANY ($1::text[]) AND global_position > $2::bigint AND NOT data ? '${SEALED_KEY}'
             AND type || '@' || coalesce(metadata ->> 'schemaVersion', '?') = ANY ($3::text[])
           ORDER BY global_position LIMIT ${REWRITE_BATCH}
         ),
         updated AS (
           UPDATE eventstore.events e SET data = b.data FROM batch b
           WHERE e.global_position = b.global_position AND b.data ? '${SEALED_KEY}' RETURNING 1
         )
         SELECT (SELECT max(global_position) FROM batch)::text AS last, (SELECT count(*) FROM updated)::integer AS sealed`,
        [PERSONAL_DATA_TYPES, after, readable],
      );
      await client.query('COMMIT');
      if (rows[0]!.last === null) break;
      sealed += rows[0]!.sealed;
      after = rows[0]!.last;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }
  await client.query(`INSERT INTO eventstore.migrations (name, detail) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    SEAL_REWRITE,
    JSON.stringify({ sealed }),
  ]);
  return sealed;
}
