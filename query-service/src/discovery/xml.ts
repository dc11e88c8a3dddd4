/**
 * Text for XML 1.0 documents (the sitemap, the feeds): what members write reaches them, so every
 * text goes through `xmlText`. XML 1.0 has no way to write some characters at all, not even as
 * references (NUL and the other C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF;
 * a lone UTF-16 surrogate): they are left out, so a document is well-formed whatever it quotes.
 */
const NOT_IN_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `text` as the content of an element or a quoted attribute value. */
export const xmlText = (text: string): string => text.replace(NOT_IN_XML, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** A time as W3C Datetime and RFC 3339 write it (what the sitemap and Atom ask for), to the second, in UTC. */
export const xmlTime = (time: Date): string => time.toISOString().replace(/\.\d{3}Z$/, 'Z');

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
