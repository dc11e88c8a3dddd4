import { FEED_ENTRIES } from '@forum/contracts';
import { prepared, type Knex } from '@forum/platform';
import { SITEMAP_BLOCK } from '@forum/projections/read-model';

export interface FeedPost {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly tags: string[];
  readonly author_name: string;
  readonly created_at: Date;
  readonly edited_at: Date | null;
}

export interface FeedComment {
  readonly id: string;
  readonly text: string;
  readonly author_name: string;
  readonly created_at: Date;
  readonly edited_at: Date | null;
}

const FEED_POST_COLUMNS = 'id, title, description, tags, author_name, created_at, edited_at';

/**
 * The sitemap's and the feeds' reads (docs/seo.md): the sitemap from the pages the sitemap
 * projection numbers, the feeds from the posts' and the comments' read models, hidden content left out.
 */
export function createDiscoveryStore(db: Knex) {
  return {
    /** The greatest page number (0: no page): the sitemap has ⌈last / size⌉ files. */
    async lastPage(): Promise<number> {
      const { rows }: { rows: { last: string | number | null }[] } = await prepared(db, 'SELECT max(seq) AS last FROM read.sitemap_pages', []);
      return Number(rows[0]?.last ?? 0);
    },

    /**
     * The time of each of `files` files of `size` pages: the latest change among the blocks of pages
     * it spans (exact when `size` is a multiple of SITEMAP_BLOCK; else no earlier than its own pages').
     * One row per block: a thousand at a million pages.
     */
    async fileTimes(files: number, size: number): Promise<(Date | null)[]> {
      const { rows }: { rows: { block: string | number; lastmod: Date }[] } = await prepared(db, 'SELECT block, lastmod FROM read.sitemap_blocks', []);
      const times: (Date | null)[] = Array.from({ length: files }, () => null);
      for (const { block, lastmod } of rows) {
        const first = Number(block) * SITEMAP_BLOCK + 1;
        const last = first + SITEMAP_BLOCK - 1;
        for (let file = Math.floor((first - 1) / size); file <= Math.min(Math.floor((last - 1) / size), files - 1); file++) {
          const time = times[file];
          if (!time || time < lastmod) times[file] = lastmod;
        }
      }
      return times;
    },

    /**
     * The `<url>` elements of the shown pages numbered in (after, upTo], in order, one a line, each
     * address `origin` (already escaped) and the page's path: a sitemap file. The projection keeps
     * each page's element after its origin (`entry`): PostgreSQL joins them through the primary key,
     * and nothing is parsed or written per row here (docs/seo.md).
     */
    async urlElements(after: number, upTo: number, origin: string): Promise<string> {
      // in runs of 250 pages: one value of 6 MB takes the client longer to receive than fifty of 30 kB
      const { rows }: { rows: { xml: string }[] } = await prepared(
        db,
        `SELECT string_agg(entry, E'\n<url><loc>' || ?::text ORDER BY seq) AS xml
         FROM read.sitemap_pages WHERE seq > ? AND seq <= ? AND NOT hidden
         GROUP BY (seq - 1) / 250 ORDER BY (seq - 1) / 250`,
        [origin, after, upTo],
      );
      return rows.map((row) => `<url><loc>${origin}${row.xml}`).join('\n');
    },

    /** The newest shown posts. */
    async newestPosts(): Promise<FeedPost[]> {
      const { rows }: { rows: FeedPost[] } = await prepared(
        db,
        `SELECT ${FEED_POST_COLUMNS} FROM read.posts WHERE hidden_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?`,
        [FEED_ENTRIES],
      );
      return rows;
    },

    /** A tag of the tag list by its name (ignoring case), as the list writes it; null when there is none. */
    async tagNamed(name: string): Promise<{ name: string; created_at: Date } | null> {
      const { rows }: { rows: { name: string; created_at: Date }[] } = await prepared(
        db,
        'SELECT name, created_at FROM read.tags WHERE lower(name) = lower(?)',
        [name],
      );
      return rows[0] ?? null;
    },

    /** The newest shown posts with a tag (ignoring case), through the tag's own index. */
    async newestPostsTagged(tag: string): Promise<FeedPost[]> {
      const { rows }: { rows: FeedPost[] } = await prepared(
        db,
        `SELECT p.* FROM (SELECT id FROM read.post_tags WHERE tag_key = lower(?) ORDER BY created_at DESC, id DESC LIMIT ?) g
         CROSS JOIN LATERAL (SELECT ${FEED_POST_COLUMNS} FROM read.posts WHERE id = g.id AND hidden_at IS NULL) p
         ORDER BY p.created_at DESC, p.id DESC`,
        [tag, FEED_ENTRIES],
      );
      return rows;
    },

    /** A shown post's title and time; null when it is not there or hidden. */
    async shownPost(id: string): Promise<{ title: string; created_at: Date } | null> {
      const { rows }: { rows: { title: string; created_at: Date }[] } = await prepared(
        db,
        'SELECT title, created_at FROM read.posts WHERE id = ? AND hidden_at IS NULL',
        [id],
      );
      return rows[0] ?? null;
    },

    /** A post's newest shown comments. */
    async newestComments(postId: string): Promise<FeedComment[]> {
      const { rows }: { rows: FeedComment[] } = await prepared(
        db,
        `SELECT id, text, author_name, created_at, edited_at FROM read.comments
         WHERE post_id = ? AND hidden_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?`,
        [postId, FEED_ENTRIES],
      );
      return rows;
    },
  };
}

export type DiscoveryStore = ReturnType<typeof createDiscoveryStore>;
