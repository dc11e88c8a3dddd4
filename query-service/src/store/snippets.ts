import { SEARCH_SNIPPET_MAX, type MarkedText } from '@forum/contracts';
import { markdownToPlainText } from '@forum/contracts/markdown';
import type { Knex } from '@forum/platform';

/**
 * A search result's snippets: PostgreSQL's ts_headline marks the words a query matched between two
 * delimiters, which are then cut into plain runs (MarkedText). No markup travels: the delimiters are
 * control characters that the text policy keeps out of posts, and they are taken out of the source
 * first all the same (an event stored before the policy), so a post cannot forge a mark. ts_headline's
 * parser drops what looks like an HTML tag ("<div>"), so every '<' is swapped for a private-use
 * character before and back after: the snippet keeps the post's text as written.
 */
const START = '\u0001';
const STOP = '\u0002';
const LESS_THAN = '\uE000';
/** Splits a headline at its delimiters, keeping them. */
const AT_DELIMITERS = new RegExp(`([${START}${STOP}])`);
/** translate()'s arguments: '<' becomes LESS_THAN; the delimiters and LESS_THAN itself are dropped. */
const SOURCE_FROM = `<${START}${STOP}${LESS_THAN}`;
const SOURCE_TO = LESS_THAN;

/** A whole text, its matches marked: a title, a description that fits in a snippet. */
const WHOLE = `HighlightAll=true, StartSel=${START}, StopSel=${STOP}`;
/** Up to two passages of a longer description around the matches (its first words when none is there). */
const PASSAGES = `StartSel=${START}, StopSel=${STOP}, MaxWords=25, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "`;

const headline = (text: string, options: string) => `ts_headline('english', translate(${text}, ?, ?), websearch_to_tsquery('english', ?), ${options})`;

/**
 * The column title_marked of a row of read.posts, for the select list, and its bindings: run it on
 * the rows of the page only (ts_headline parses the whole text again). The same text-search
 * configuration and query as the search vector's (SEARCH_VECTOR, websearch_to_tsquery).
 */
export function titleHeadline(q: string) {
  return { sql: `${headline('title', '?')} AS title_marked`, bindings: [SOURCE_FROM, SOURCE_TO, q, WHOLE] };
}

/**
 * The snippets of the page's descriptions, marked for `q` as the titles are: each description's
 * plain text (Markdown read as contracts' markdownToPlainText: no markup characters in a snippet),
 * whole when it fits in a snippet, else its passages around the matches.
 */
export async function descriptionSnippets(db: Knex, q: string, descriptions: readonly string[]): Promise<MarkedText[]> {
  if (descriptions.length === 0) return [];
  const { rows } = await db.raw<{ rows: { marked: string }[] }>(
    `SELECT ${headline('d', 'CASE WHEN char_length(d) <= ? THEN ? ELSE ? END')} AS marked
     FROM unnest(?::text[]) WITH ORDINALITY AS x(d, n) ORDER BY n`,
    [SOURCE_FROM, SOURCE_TO, q, SEARCH_SNIPPET_MAX, WHOLE, PASSAGES, descriptions.map(markdownToPlainText)],
  );
  return rows.map((row) => markedText(row.marked));
}

/** A headline cut at its delimiters into marked and unmarked runs, white space as single spaces, at most SEARCH_SNIPPET_MAX characters (the last of them '…' when cut). */
export function markedText(headline: string): MarkedText {
  const text = headline.replaceAll(LESS_THAN, '<').replace(/\s+/g, ' ').trim();
  const parts = text.split(AT_DELIMITERS);
  const cut = Array.from(text.replaceAll(START, '').replaceAll(STOP, '')).length > SEARCH_SNIPPET_MAX;
  const runs: MarkedText = [];
  let left = cut ? SEARCH_SNIPPET_MAX - 1 : SEARCH_SNIPPET_MAX;
  let marked = false;
  for (const part of parts) {
    if (part === START || part === STOP) marked = part === START;
    else if (part !== '' && left > 0) {
      const kept = Array.from(part).slice(0, left);
      runs.push({ text: kept.join(''), marked });
      left -= kept.length;
    }
  }
  if (cut) runs.push({ text: '…', marked: false });
  return runs;
}
