import { randomBytes } from 'node:crypto';
import { SUBJECT_KEYS, type SubjectKey } from '@forum/contracts';
import type { Erasure } from '../erasures.ts';
import { openData, sealData } from '../sealed-box.ts';
import type { ErasedAs } from '../types.ts';

type Data = Record<string, unknown>;
const isData = (value: unknown): value is Data => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A key: 32 bytes for AES-256, 32 for HMAC-SHA-256 (sealed-box.ts). */
const newKey = () => randomBytes(64);

/**
 * The members' keys of the in-memory store, kept as sealing-sql.ts keeps them in PostgreSQL's
 * `keystore`: a member's two keys are made the first time their data is sealed; an erasure destroys
 * their identity key (and their content key when their content goes), after which every copy of what
 * those keys sealed reads as erased, and what is sealed for them later is sealed under a key that is
 * never kept.
 */
export class MemoryKeystore {
  private readonly keys = new Map<string, Buffer>();
  private readonly erased = new Set<string>();

  /** `data` of a `type` event stored at `version` with its personal fields in sealed boxes. */
  seal(type: string, version: number, data: unknown): unknown {
    return isData(data) ? sealData(type, version, data, (subject, kind) => this.keyFor(subject, kind)) : data;
  }

  /** `data` with its sealed fields back in place while their keys exist, else as `erasedAs` says. */
  open(data: unknown, erasedAs: ErasedAs): unknown {
    return isData(data) ? openData(data, (subject, kind) => this.keys.get(slot(subject, kind)), erasedAs) : data;
  }

  /** Destroys what an `AccountErased` erases; no key is kept for the member again. */
  erase({ subject, contentErased }: Erasure): void {
    this.keys.delete(slot(subject, 'identity'));
    if (contentErased) this.keys.delete(slot(subject, 'content'));
    this.erased.add(subject);
  }

  private keyFor(subject: string, kind: SubjectKey): Buffer {
    const kept = this.keys.get(slot(subject, kind));
    if (kept) return kept;
    if (this.erased.has(subject)) return newKey();
    for (const each of SUBJECT_KEYS) this.keys.set(slot(subject, each), newKey());
    return this.keys.get(slot(subject, kind))!;
  }
}

const slot = (subject: string, kind: SubjectKey) => `${subject}\n${kind}`;
