import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** gzip's header (RFC 1952): deflate, no flags, no time, no extra flags, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);
/** An empty last deflate block (fixed Huffman codes, its end code only): what ends the stream. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);
/** How far back deflate refers (its window): the history each part is compressed after. */
const WINDOW = 32 * 1024;
/** Stands where the values go while the parts are compressed: a byte no page holds, so no match of deflate's can take one in. */
const FILLER = 0x01;

/**
 * A page kept in memory as gzip compressed once, for answers that each write their own value (a CSP
 * nonce: always as long) where the page holds `placeholder`.
 *
 * On the first answer, the parts between the placeholders are compressed one after the other, each
 * with what precedes it as deflate's history (a preset dictionary), the placeholders standing there as
 * as many FILLER bytes as that answer's value has: no page holds that byte, so no back-reference of a
 * part can reach into a value, and every other distance is the same whatever the value is. Each part
 * ends on a sync flush (byte-aligned), so an answer is the parts with its value between them as a
 * stored (uncompressed) block, a last empty block and the trailer (the CRC-32 of the whole text, its
 * length): as small as compressing the answer anew, for the CRC of the page (some 20 µs per 100 kB)
 * where compressing it cost a millisecond. A page that holds FILLER, or a value of another length
 * than the first, is compressed anew (correct, not faster).
 */
export function precompressPage(page: string, placeholder: string): (value: string) => Buffer {
  const texts = page.split(placeholder).map((text) => Buffer.from(text, 'utf8'));
  const anew = (value: string) => gzipSync(page.replaceAll(placeholder, value));
  if (texts.some((text) => text.includes(FILLER))) return anew;
  let compressed: { valueLength: number; parts: { raw: Buffer; deflated: Buffer }[] } | undefined;
  return (value) => {
    const raw = Buffer.from(value, 'utf8');
    if (raw.length > 0xffff) return anew(value);
    compressed ??= { valueLength: raw.length, parts: compress(texts, raw.length) };
    if (raw.length !== compressed.valueLength) return anew(value);
    // BFINAL 0, BTYPE 00 (stored), then LEN and its one's complement NLEN, little-endian, then the bytes
    const stored = Buffer.alloc(5 + raw.length);
    stored.writeUInt16LE(raw.length, 1);
    stored.writeUInt16LE(~raw.length & 0xffff, 3);
    raw.copy(stored, 5);
    const chunks: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let length = 0;
    compressed.parts.forEach((part, i) => {
      if (i > 0) {
        chunks.push(stored);
        crc = crc32(raw, crc);
        length += raw.length;
      }
      chunks.push(part.deflated);
      crc = crc32(part.raw, crc);
      length += part.raw.length;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(length >>> 0, 4);
    chunks.push(LAST_BLOCK, trailer);
    return Buffer.concat(chunks);
  };
}

/** Each text deflated after the ones before it, with `valueLength` FILLER bytes between them in the history. */
function compress(texts: Buffer[], valueLength: number): { raw: Buffer; deflated: Buffer }[] {
  const filler = Buffer.alloc(valueLength, FILLER);
  let history = Buffer.alloc(0);
  return texts.map((raw, i) => {
    if (i > 0) history = Buffer.concat([history, filler]).subarray(-WINDOW);
    const deflated =
      raw.length === 0 ? Buffer.alloc(0) : deflateRawSync(raw, { finishFlush: constants.Z_SYNC_FLUSH, ...(history.length > 0 && { dictionary: history }) });
    history = Buffer.concat([history, raw]).subarray(-WINDOW);
    return { raw, deflated };
  });
}
