import { postPagePath, tagPagePath } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import type { Projection, ProjectedEvent } from '../runner/projection.ts';
import { SITEMAP_BLOCK } from './blocks.ts';

const SITEMAP_TYPES = ['PostCreated', 'PostEdited', 'PostDeleted', 'PostHidden', 'PostUnhidden', 'CommentAdded', 'TagCreated', 'TagDeleted'] as const;
type SitemapEvent = ProjectedEvent<(typeof SITEMAP_TYPES)[number]>;

/**
 * The public pages a sitemap lists (issue #46, docs/seo.md): every live post's page and every tag's,
 * each with the time it last changed (`lastmod`).
 *
 * Pages are numbered (`seq`) in the order they were first published, densely (the next is the
 * greatest plus one), and a sitemap file is a range of numbers: file n of size S holds
 * `seq` in ((n-1)·S, n·S], read through the primary key, so any file is read alike at any depth,
 * a new page changes only the last file, and a deleted page leaves a hole in its own (a file then
 * lists fewer than S; never more). A hidden post keeps its number and is left out while hidden.
 *
 * What a page's time means: a post's, when its text last changed, a comment was last added to it,
 * or staff showed it again; a tag's, when a post last entered, changed in or left its list (the
 * tag's creation before). `blocks` keeps, per SITEMAP_BLOCK numbers, the latest time anything in
 * them changed, deletions and hidings included: the sitemap index's time for a file, read from
 * at most a few dozen rows.
 *
 * It reads no personal data: post ids, tags and times.
 */
export const sitemapProjection: Projection<SitemapEvent> = {
  name: 'sitemap',
  // what each version changed: docs/projections-versions.md
  version: 2,
  types: SITEMAP_TYPES,
  opens: [],
  exposes: { sitemap_pages: 'pages', sitemap_blocks: 'blocks', sitemap_gone: 'gone' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS pages (
        seq bigint PRIMARY KEY,
        post_id uuid UNIQUE,
        tag_id uuid UNIQUE,
        -- a tag's name lower-cased, as posts' tags are matched
        tag_key text UNIQUE,
        -- its address on the forum (postPagePath, tagPagePath)
        path text NOT NULL,
        -- a post's tags, lower-cased: the tag pages that change with it
        tag_keys text[] NOT NULL DEFAULT '{}',
        lastmod timestamptz NOT NULL,
        hidden boolean NOT NULL DEFAULT false,
        -- the page's <url> element after its address's origin, which the query side knows (PUBLIC_URL):
        -- '<path></loc><lastmod><time></lastmod></url>', written with each change (ENTRY)
        entry text
      );
      CREATE TABLE IF NOT EXISTS blocks (block bigint PRIMARY KEY, lastmod timestamptz NOT NULL);
      -- the posts deleted: their pages are gone for good (410), where an address that never was a post's is 404
      CREATE TABLE IF NOT EXISTS gone (post_id uuid PRIMARY KEY, deleted_at timestamptz NOT NULL);
    `);
  },
  apply: applyBatch,
};

/**
 * A page's sitemap entry, from its path and time: a sitemap file is its pages' entries joined by
 * PostgreSQL alone (a file of 50,000 in a few tens of ms; written per row at each read, the same
 * took two to three times as long, docs/seo.md). The path is the projection's own (encoded: no
 * markup), escaped all the same; the time in UTC, to the second (W3C Datetime).
 */
const ENTRY = `replace(replace(path, '&', '&amp;'), '<', '&lt;') || '</loc><lastmod>' || to_char(lastmod AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '</lastmod></url>'`;

/** The pages a statement changed (RETURNING seq), and when. */
type Touched = Map<bigint, Date>;

async function applyBatch(trx: Knex.Transaction, events: readonly SitemapEvent[]) {
  const touched: Touched = new Map();
  // posts created one after another go in one statement; comments, which only move their post's
  // time forward, in one at the end (what comes between cannot undo them: a deleted post takes them along)
  let created: ProjectedEvent<'PostCreated'>['data'][] = [];
  const commented = new Map<string, string>();
  const flush = async () => {
    if (created.length > 0) await createPosts(trx, created, touched);
    created = [];
  };
  for (const event of events) {
    if (event.type === 'PostCreated') {
      created.push(event.data);
      continue;
    }
    if (event.type === 'CommentAdded') {
      const { postId, createdAt } = event.data;
      if ((commented.get(postId) ?? '') < createdAt) commented.set(postId, createdAt);
      continue;
    }
    await flush();
    switch (event.type) {
      case 'PostEdited': {
        const { postId, tags, editedAt } = event.data;
        await changePost(
          trx,
          touched,
          editedAt,
          `UPDATE pages p SET tag_keys = ARRAY(SELECT DISTINCT lower(t) FROM unnest(?::text[]) t), lastmod = greatest(p.lastmod, ?)
           FROM pages before WHERE before.seq = p.seq AND p.post_id = ?
           RETURNING p.seq, p.hidden, p.tag_keys || before.tag_keys AS tag_keys`,
          [tags, editedAt, postId],
        );
        break;
      }
      case 'PostDeleted':
        await changePost(trx, touched, event.data.deletedAt, 'DELETE FROM pages WHERE post_id = ? RETURNING seq, hidden, tag_keys', [event.data.postId]);
        await trx.raw('INSERT INTO gone (post_id, deleted_at) VALUES (?, ?) ON CONFLICT (post_id) DO NOTHING', [event.data.postId, event.data.deletedAt]);
        break;
      case 'PostHidden':
        // the post leaves its tags' pages too: their time moves while it is hidden
        await changePost(
          trx,
          touched,
          event.data.hiddenAt,
          'UPDATE pages SET hidden = true WHERE post_id = ? AND NOT hidden RETURNING seq, false AS hidden, tag_keys',
          [event.data.postId],
        );
        break;
      case 'PostUnhidden': {
        const { postId, unhiddenAt } = event.data;
        await changePost(
          trx,
          touched,
          unhiddenAt,
          'UPDATE pages SET hidden = false, lastmod = greatest(lastmod, ?) WHERE post_id = ? AND hidden RETURNING seq, hidden, tag_keys',
          [unhiddenAt, postId],
        );
        break;
      }
      case 'TagCreated': {
        const { tagId, name, createdAt } = event.data;
        // a name or id already taken keeps the first, as in the tag list
        const { rows } = await trx.raw<{ rows: { seq: string }[] }>(
          `INSERT INTO pages (seq, tag_id, tag_key, path, lastmod)
           SELECT coalesce((SELECT max(seq) FROM pages), 0) + 1, ?, lower(?), ?, ?
           ON CONFLICT DO NOTHING RETURNING seq`,
          [tagId, name, tagPagePath(name), createdAt],
        );
        touch(touched, rows, createdAt);
        break;
      }
      case 'TagDeleted': {
        const { rows } = await trx.raw<{ rows: { seq: string }[] }>('DELETE FROM pages WHERE tag_id = ? RETURNING seq', [event.data.tagId]);
        touch(touched, rows, event.data.deletedAt);
        break;
      }
      default:
        event satisfies never;
    }
  }
  await flush();
  if (commented.size > 0) {
    const rows = [...commented].map(([postId, at]) => ({ postId, at }));
    const { rows: changed } = await trx.raw<{ rows: { seq: string; at: Date }[] }>(
      `UPDATE pages p SET lastmod = greatest(p.lastmod, x.at)
       FROM jsonb_to_recordset(?::jsonb) AS x("postId" uuid, at timestamptz) WHERE p.post_id = x."postId"
       RETURNING p.seq, x.at`,
      [JSON.stringify(rows)],
    );
    for (const row of changed) touch(touched, [row], row.at);
  }
  if (touched.size > 0) {
    await trx.raw(`UPDATE pages SET entry = ${ENTRY} WHERE seq = ANY (?::bigint[])`, [[...touched.keys()].map(String)]);
    const blocks = new Map<string, Date>();
    for (const [seq, at] of touched) {
      const block = ((seq - 1n) / BigInt(SITEMAP_BLOCK)).toString();
      if ((blocks.get(block)?.getTime() ?? -Infinity) < at.getTime()) blocks.set(block, at);
    }
    await trx.raw(
      `INSERT INTO blocks (block, lastmod) SELECT block, at FROM jsonb_to_recordset(?::jsonb) AS x(block bigint, at timestamptz)
       ON CONFLICT (block) DO UPDATE SET lastmod = greatest(blocks.lastmod, excluded.lastmod)`,
      [JSON.stringify([...blocks].map(([block, at]) => ({ block, at })))],
    );
  }
}

function touch(touched: Touched, rows: readonly { seq: string }[], at: string | Date) {
  const time = new Date(at);
  for (const { seq } of rows) {
    const key = BigInt(seq);
    if ((touched.get(key)?.getTime() ?? -Infinity) < time.getTime()) touched.set(key, time);
  }
}

/** The pages of tags (lower-cased) whose lists changed at `at`. */
async function tagsChanged(trx: Knex.Transaction, touched: Touched, keys: readonly string[], at: string) {
  if (keys.length === 0) return;
  const { rows } = await trx.raw<{ rows: { seq: string }[] }>('UPDATE pages SET lastmod = greatest(lastmod, ?) WHERE tag_key = ANY (?::text[]) RETURNING seq', [
    at,
    [...new Set(keys)],
  ]);
  touch(touched, rows, at);
}

/** A change of one post's page (`sql` returns its seq, whether it stays hidden, and the tags whose lists it changed), then of its tags' pages. */
async function changePost(trx: Knex.Transaction, touched: Touched, at: string, sql: string, bindings: readonly Knex.RawBinding[]) {
  const { rows } = await trx.raw<{ rows: { seq: string; hidden: boolean; tag_keys: string[] }[] }>(sql, bindings);
  touch(touched, rows, at);
  const shown = rows.filter((row) => !row.hidden);
  await tagsChanged(
    trx,
    touched,
    shown.flatMap((row) => row.tag_keys),
    at,
  );
}

/** Posts created one after another: numbered in log order after the greatest, then their tags' pages. */
async function createPosts(trx: Knex.Transaction, posts: readonly ProjectedEvent<'PostCreated'>['data'][], touched: Touched) {
  const rows = posts.map((post) => ({ id: post.postId, path: postPagePath(post.postId), tags: post.tags, at: post.createdAt }));
  const { rows: inserted } = await trx.raw<{ rows: { seq: string; lastmod: Date }[] }>(
    `INSERT INTO pages (seq, post_id, path, tag_keys, lastmod)
     SELECT (SELECT coalesce(max(seq), 0) FROM pages) + row_number() OVER (ORDER BY ord), id, path,
            ARRAY(SELECT DISTINCT lower(t) FROM jsonb_array_elements_text(tags) t), at
     FROM (SELECT DISTINCT ON (id) * FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (id uuid, path text, tags jsonb, at timestamptz)) WITH ORDINALITY AS x(id, path, tags, at, ord)
           WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.post_id = x.id) ORDER BY id, ord) first
     ORDER BY ord
     RETURNING seq, lastmod`,
    [JSON.stringify(rows)],
  );
  for (const row of inserted) touch(touched, [row], row.lastmod);
  // each tag's page takes the newest time among the posts that entered its list (lower-cased by PostgreSQL, as the posts' read model does)
  const { rows: tagged } = await trx.raw<{ rows: { seq: string; at: Date }[] }>(
    `UPDATE pages p SET lastmod = greatest(p.lastmod, x.at)
     FROM (SELECT lower(t) AS key, max(at) AS at FROM jsonb_to_recordset(?::jsonb) AS r(tags jsonb, at timestamptz), jsonb_array_elements_text(r.tags) t GROUP BY 1) x
     WHERE p.tag_key = x.key
     RETURNING p.seq, x.at`,
    [JSON.stringify(rows)],
  );
  for (const row of tagged) touch(touched, [row], row.at);
}
