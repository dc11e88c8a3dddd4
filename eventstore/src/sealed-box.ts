import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ERASED_MARK, ERASED_VALUES, PERSONAL_DATA, SEALED_KEY, type PersonalField, type SubjectKey } from '@forum/contracts';
import type { ErasedAs } from './types.ts';

/**
 * The sealed boxes of sealing-sql.ts, in Node: what an event store outside PostgreSQL (the
 * KurrentDB adapter of the distributed layout) seals and opens with the same keys, so that both
 * read each other's events (docs/security/erasure.md). AES-256-CBC, PKCS#7 padding, a random IV,
 * then HMAC-SHA-256 over subject, key kind, IV and ciphertext; a key is 64 bytes (cipher, MAC).
 */

interface SealedBox {
  /** The subject (the member whose data it is). */
  readonly s: string;
  readonly k: SubjectKey;
  /** The fields it holds, by path, and what each is. */
  readonly f: Readonly<Record<string, PersonalField>>;
  /** base64 of IV ‖ ciphertext ‖ MAC. */
  readonly c: string;
}

type Data = Record<string, unknown>;

const macOf = (key: Buffer, subject: string, kind: string, iv: Buffer, ciphertext: Buffer) =>
  createHmac('sha256', key.subarray(32, 64)).update(`${subject}\n${kind}\n`, 'utf8').update(iv).update(ciphertext).digest();

function valueAt(data: Data, path: string): unknown {
  return path.split('.').reduce<unknown>((at, step) => (at !== null && typeof at === 'object' ? (at as Data)[step] : undefined), data);
}

/** A copy of `data` with `path` set to `value` (or removed, for undefined); the parents of a nested path exist. */
function withValueAt(data: Data, path: string, value: unknown): Data {
  const [head, ...rest] = path.split('.');
  const copy = { ...data };
  if (rest.length > 0) copy[head!] = withValueAt((copy[head!] as Data | undefined) ?? {}, rest.join('.'), value);
  else if (value === undefined) delete copy[head!];
  else copy[head!] = value;
  return copy;
}

/** `data` of a `type` event stored at `version` with its personal fields in sealed boxes; `keyFor` gives (or makes) a subject's key. */
export function sealData(type: string, version: number, data: Data, keyFor: (subject: string, kind: SubjectKey) => Buffer): Data {
  const spec = PERSONAL_DATA[`${type}@${version}`];
  const subject = spec && data[spec.subject];
  if (!spec || typeof subject !== 'string' || SEALED_KEY in data) return data;
  let sealed = data;
  const boxes: SealedBox[] = [];
  for (const kind of (Object.keys(spec.keys) as SubjectKey[]).sort().reverse()) {
    const plain: Data = {};
    const fields: Record<string, PersonalField> = {};
    for (const [path, what] of Object.entries(spec.keys[kind]!)) {
      const value = valueAt(sealed, path);
      if (value === undefined) continue;
      plain[path] = value;
      fields[path] = what;
      sealed = withValueAt(sealed, path, undefined);
    }
    if (Object.keys(fields).length === 0) continue;
    const key = keyFor(subject, kind);
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', key.subarray(0, 32), iv);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
    boxes.push({ s: subject, k: kind, f: fields, c: Buffer.concat([iv, ciphertext, macOf(key, subject, kind, iv, ciphertext)]).toString('base64') });
  }
  return boxes.length === 0 ? data : { ...sealed, [SEALED_KEY]: boxes };
}

/** `data` with its sealed fields back in place: opened with the subject's key while `keyOf` has it, else as erased. */
export function openData(data: Data, keyOf: (subject: string, kind: SubjectKey) => Buffer | undefined, erasedAs: ErasedAs = 'placeholder'): Data {
  const boxes = data[SEALED_KEY] as readonly SealedBox[] | undefined;
  if (!boxes) return data;
  let opened: Data = { ...data };
  delete opened[SEALED_KEY];
  for (const box of boxes) {
    const key = keyOf(box.s, box.k);
    let plain: Data | null = null;
    if (key) {
      const raw = Buffer.from(box.c, 'base64');
      const iv = raw.subarray(0, 16);
      const ciphertext = raw.subarray(16, raw.length - 32);
      if (!timingSafeEqual(macOf(key, box.s, box.k, iv, ciphertext), raw.subarray(raw.length - 32))) {
        throw new Error(`a sealed box of subject ${box.s} does not match its key: the event was altered`);
      }
      const decipher = createDecipheriv('aes-256-cbc', key.subarray(0, 32), iv);
      plain = JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8')) as Data;
    }
    for (const [path, what] of Object.entries(box.f)) {
      opened = withValueAt(opened, path, plain ? plain[path] : erasedAs === 'marked' ? ERASED_MARK : ERASED_VALUES[what]);
    }
  }
  return opened;
}
