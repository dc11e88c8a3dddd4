import { constants, crc32, deflateRawSync } from 'node:zlib';

/** gzip's header (RFC 1952): deflate, no flags, no time, no extra flags, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);
/** An empty last deflate block (fixed Huffman codes, its end code only): what ends the stream. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);
/** The most one stored deflate block holds (RFC 1951 3.2.4). */
const STORED_MAX = 0xffff;

/**
 * A page kept in memory as gzip compressed once, for answers that each write their own value (a CSP
 * nonce) where the page holds `placeholder`: the parts between the placeholders are compressed when
 * the page is kept, each ending on a full flush (byte-aligned, referring to nothing before it), so
 * an answer is those parts with its value between them as stored (uncompressed) blocks, a last empty
 * block and the trailer (the CRC-32 of the whole text, its length). An answer then costs the CRC
 * of the page (some 20 µs for 100 kB) where compressing it again cost about a millisecond.
 */
export function precompressPage(page: string, placeholder: string): (value: string) => Buffer {
  const parts = page.split(placeholder).map((text) => {
    const raw = Buffer.from(text, 'utf8');
    return { raw, deflated: raw.length === 0 ? Buffer.alloc(0) : deflateRawSync(raw, { finishFlush: constants.Z_FULL_FLUSH }) };
  });
  return (value) => {
    const raw = Buffer.from(value, 'utf8');
    const stored = storedBlocks(raw);
    const chunks: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let length = 0;
    parts.forEach((part, i) => {
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

/** `raw` as stored deflate blocks, none the last; the stream is byte-aligned before and after them. */
function storedBlocks(raw: Buffer): Buffer {
  const blocks: Buffer[] = [];
  for (let start = 0; start < raw.length; start += STORED_MAX) {
    const data = raw.subarray(start, start + STORED_MAX);
    const header = Buffer.alloc(5);
    // BFINAL 0, BTYPE 00 (stored), then LEN and its one's complement NLEN, little-endian
    header.writeUInt16LE(data.length, 1);
    header.writeUInt16LE(~data.length & 0xffff, 3);
    blocks.push(header, data);
  }
  return Buffer.concat(blocks);
}
