import { DELETED_USER_NAME, ERASED_VALUES, PAGE_SIZE, PINNED_MAX, TAG_LIST_MAX, UNPAGED_LIST_MAX, type PostSort, type Vote } from '@forum/contracts';
import { prepared, type Knex } from '@forum/platform';
import { pageThroughBlocks, type PostList } from '@forum/projections/read-model';

export interface PostRow {
  id: string;
  title: string;
  description: string;
  summary: string;
  tags: string[];
  author_id: string;
  /** The author's id while they have a public profile; null once erased (authorProfileId). */
  author_profile_id: string | null;
  author_name: string;
  author_email: string;
  author_photo: string;
  created_at: Date;
  up_vote: number;
  down_vote: number;
  comment_count: number;
  edited_at: Date | null;
  revision_count: number;
  /** Staff's marks (issue #43): pinned and locked show on every card; hidden posts are read only where their author and staff see them. */
  pinned_at: Date | null;
  locked: boolean;
  lock_reason?: string | null;
  hidden_reason?: string | null;
  hidden_at?: Date | null;
}

/**
 * The author's id of a post's or comment's row (its columns after `table`) while the author has a public
 * profile, else NULL: an erasure leaves their rows by DELETED_USER_NAME with no email (ERASED_VALUES),
 * which no member's own rows read, so the link goes in the same write that changes the name shown.
 */
export const authorProfileId = (table = '') =>
  `CASE WHEN ${table}author_email = '${ERASED_VALUES.email}' AND ${table}author_name = '${DELETED_USER_NAME}' THEN NULL ELSE ${table}author_id END`;

export const LIST_COLUMNS = `id, title, summary, tags, author_name, ${authorProfileId()} AS author_profile_id, author_photo, created_at, up_vote, down_vote, comment_count, edited_at, revision_count, pinned_at, locked`;
/** A post's own page, and its author's My Posts: the marks' reasons too. */
const DETAIL_COLUMNS = `${LIST_COLUMNS}, description, author_id, author_email, lock_reason, hidden_reason, hidden_at`;

/** Posts everyone is shown (not hidden by staff, issue #43); the home page's lists leave out the pinned too. */
export const SHOWN = 'hidden_at IS NULL';
const LISTED = 'hidden_at IS NULL AND pinned_at IS NULL';
/** How many of the counted posts the home page's lists leave out: the few hidden or pinned (their partial indexes). */
const UNLISTED_COUNT = 'SELECT count(*) FROM read.posts WHERE hidden_at IS NOT NULL OR pinned_at IS NOT NULL';
const HIDDEN_COUNT = 'SELECT count(*) FROM read.posts WHERE hidden_at IS NOT NULL';
const ORDER: Record<PostSort, string> = {
  newest: 'created_at DESC, id DESC',
  popularity: 'score DESC, created_at DESC, id DESC',
};

/** Sortable fields of the react-admin list, and their columns. */
export const POST_SORT_FIELDS: Record<string, string> = {
  id: 'id',
  createdAt: 'created_at',
  title: 'title',
  upVote: 'up_vote',
  downVote: 'down_vote',
  commentCount: 'comment_count',
  authorName: 'author_name',
};

/**
 * `limit` posts of a list from `offset` through the page anchors (see @forum/projections' pages.ts),
 * or null when the anchors are out of date (a replay is under way): then the caller pages with OFFSET.
 */
const POSTS_TOTAL = { sql: `SELECT value - (${UNLISTED_COUNT}) FROM read.post_counters WHERE name = 'posts'`, bindings: [] };

/** A tag's total: its counter less its hidden posts (`?`: the tag). */
export const tagTotal = (tag: string) => ({
  sql: `SELECT posts - (${HIDDEN_COUNT} AND tag_keys @> ARRAY[lower(?)]::text[]) FROM read.post_tag_counters WHERE tag_key = lower(?)`,
  bindings: [tag, tag],
});

export async function pageOf(
  db: Knex,
  list: PostList,
  offset: number,
  limit: number,
  total: { sql: string; bindings: Knex.RawBinding[] },
): Promise<{ rows: Omit<PostRow, 'description' | 'author_id' | 'author_email'>[]; total: number } | null> {
  const names = {
    posts: 'read.posts',
    blocks: 'read.post_page_blocks',
    settings: 'read.post_page_settings',
    tags: 'read.post_tags',
    columns: LIST_COLUMNS,
    total,
  };
  const { sql, bindings } = pageThroughBlocks(list, names, offset, limit);
  const { rows }: { rows: (PostRow & { current: boolean; total: number | null })[] } = await prepared(db, sql, bindings);
  if (!rows[0]?.current) return null;
  return { rows: rows.filter((row) => row.id !== null).map(({ current: _, total: __, ...row }) => row), total: Number(rows[0].total ?? 0) };
}

export function createPostsStore(db: Knex) {
  return {
    /**
     * The home page: the page through the posts projection's page anchors (any page in about the
     * time of the first) and the total (the counter row, less the few posts staff hid or pinned,
     * which the lists leave out); with OFFSET while the anchors are out of date.
     */
    async page(page: number, sort: PostSort): Promise<{ rows: PostRow[]; total: number }> {
      const anchored = await pageOf(db, { kind: sort === 'newest' ? 'newest' : 'popular' }, (page - 1) * PAGE_SIZE, PAGE_SIZE, POSTS_TOTAL);
      if (anchored) return anchored as { rows: PostRow[]; total: number };
      const { rows } = await db.raw<{ rows: (PostRow & { total: number })[] }>(
        `SELECT c.value - (${UNLISTED_COUNT}) AS total, p.* FROM read.post_counters c
         LEFT JOIN LATERAL (SELECT ${LIST_COLUMNS} FROM read.posts WHERE ${LISTED} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?) p ON true
         WHERE c.name = 'posts'`,
        [PAGE_SIZE, (page - 1) * PAGE_SIZE],
      );
      const total = Number(rows[0]?.total ?? 0);
      return { rows: rows.filter((row) => row.id !== null).map(({ total: _, ...row }) => row), total };
    },

    /** The pinned posts staff have not hidden, newest pin first: the home page's first page shows them apart. */
    async pinned(): Promise<PostRow[]> {
      const { rows }: { rows: PostRow[] } = await prepared(
        db,
        `SELECT ${LIST_COLUMNS} FROM read.posts WHERE pinned_at IS NOT NULL AND ${SHOWN} ORDER BY pinned_at DESC, id DESC LIMIT ?`,
        [PINNED_MAX],
      );
      return rows;
    },

    /** react-admin's list: every post everyone is shown (pinned ones too), in a sortable field's order. */
    async range(start: number, end: number, field: string, direction: 'ASC' | 'DESC'): Promise<{ rows: PostRow[]; total: number }> {
      const column = POST_SORT_FIELDS[field] ?? 'created_at';
      const [rows, total] = await Promise.all([
        db.raw<{ rows: PostRow[] }>(`SELECT ${LIST_COLUMNS} FROM read.posts WHERE ${SHOWN} ORDER BY ${column} ${direction}, id ${direction} LIMIT ? OFFSET ?`, [
          end - start + 1,
          start,
        ]),
        db.raw<{ rows: { value: number }[] }>(`SELECT value - (${HIDDEN_COUNT}) AS value FROM read.post_counters WHERE name = 'posts'`),
      ]);
      return { rows: rows.rows, total: Number(total.rows[0]?.value ?? 0) };
    },

    /**
     * My Posts: a user's newest UNPAGED_LIST_MAX posts (an author's index), those staff hid among
     * them with their mark, and how many they have (the counter the posts projection keeps), in one statement.
     */
    async byAuthor(authorId: string): Promise<{ rows: PostRow[]; total: number }> {
      const { rows }: { rows: (PostRow & { total: number | null })[] } = await prepared(
        db,
        `SELECT (SELECT posts FROM read.author_stats WHERE user_id = ?) AS total, p.*
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (SELECT ${LIST_COLUMNS}, hidden_reason, hidden_at FROM read.posts WHERE author_id = ? ORDER BY created_at DESC, id DESC LIMIT ?) p ON true`,
        [authorId, authorId, UNPAGED_LIST_MAX],
      );
      return { rows: rows.filter((row) => row.id !== null).map(({ total: _, ...row }) => row), total: Number(rows[0]?.total ?? 0) };
    },

    /** Live posts of an author, from the counter the posts projection keeps (no count per request). */
    async countByAuthor(authorId: string): Promise<number> {
      const { rows } = await db.raw<{ rows: { posts: number }[] }>('SELECT posts FROM read.author_stats WHERE user_id = ?', [authorId]);
      return rows[0]?.posts ?? 0;
    },

    /** A post as anyone reads it (the viewer's own part, their vote, is `voteOf`), or null; null too when staff hid it (`hiddenById`). */
    async byId(id: string): Promise<PostRow | null> {
      const { rows }: { rows: PostRow[] } = await prepared(db, `SELECT ${DETAIL_COLUMNS} FROM read.posts WHERE id = ? AND ${SHOWN}`, [id]);
      return rows[0] ?? null;
    },

    /** Whether a post of this id was deleted (the sitemap projection keeps their ids): its address is gone, not unknown. */
    async wasDeleted(id: string): Promise<boolean> {
      const { rows }: { rows: unknown[] } = await prepared(db, 'SELECT 1 FROM read.sitemap_gone WHERE post_id = ?', [id]);
      return rows.length > 0;
    },

    /** A post staff hid, with its mark, for its author and staff alone (never kept for others), or null. */
    async hiddenById(id: string): Promise<PostRow | null> {
      const { rows }: { rows: PostRow[] } = await prepared(db, `SELECT ${DETAIL_COLUMNS} FROM read.posts WHERE id = ? AND hidden_at IS NOT NULL`, [id]);
      return rows[0] ?? null;
    },

    /** Whether `userId` reported the post (issue #43: one report per member and post), from the queue's reports. */
    async reportedBy(postId: string, userId: string): Promise<boolean> {
      const { rows }: { rows: unknown[] } = await prepared(db, `SELECT 1 FROM read.queue_reports WHERE kind = 'post' AND id = ? AND reporter_id = ?`, [
        postId,
        userId,
      ]);
      return rows.length > 0;
    },

    /** The counts of the posts `ids` names that exist (the change stream's `post-counts`: one statement for a batch's posts). */
    async countsOf(ids: readonly string[]): Promise<PostCounts[]> {
      const { rows }: { rows: PostCounts[] } = await prepared(db, 'SELECT id, up_vote, down_vote, comment_count FROM read.posts WHERE id = ANY(?::uuid[])', [
        [...ids],
      ]);
      return rows;
    },

    /** `userId`'s vote on a post ('none' when they have not voted): one lookup by the votes' key (post, voter). */
    async voteOf(postId: string, userId: string): Promise<Vote> {
      const { rows }: { rows: { vote: Vote }[] } = await prepared(db, 'SELECT vote FROM read.post_votes WHERE post_id = ? AND user_id = ?', [postId, userId]);
      return rows[0]?.vote ?? 'none';
    },
  };
}
export type PostsStore = ReturnType<typeof createPostsStore>;

/** A post's counts as the read model has them. */
export type PostCounts = Pick<PostRow, 'id' | 'up_vote' | 'down_vote' | 'comment_count'>;

export function createTagsStore(db: Knex) {
  return {
    /** The public tag list: the first TAG_LIST_MAX names by name, and how many there are. */
    async names(): Promise<{ names: string[]; total: number }> {
      const { rows } = await db.raw<{ rows: { name: string; total: number }[] }>(
        `SELECT name, count(*) OVER ()::integer AS total FROM read.tags ORDER BY lower(name) LIMIT ?`,
        [TAG_LIST_MAX],
      );
      return { names: rows.map((r) => r.name), total: rows[0]?.total ?? 0 };
    },
  };
}
export type TagsStore = ReturnType<typeof createTagsStore>;
