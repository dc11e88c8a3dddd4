import {
  LEADERBOARD_SIZE,
  PAGE_SIZE,
  RECENT_POSTS,
  SEARCH_MATCH_CAP,
  UNPAGED_LIST_MAX,
  type KeysetPosition,
  type ListOrder,
  type MarkedText,
  type ReportFeedback,
} from '@forum/contracts';
import { prepared, type Knex } from '@forum/platform';
import { authorProfileId, LIST_COLUMNS, pageOf, SHOWN, tagTotal, type PostRow } from './posts.ts';
import type { UserRow } from './users.ts';
import { AT_MICROS, MICROS_OF } from './keyset.ts';
import { descriptionSnippets, markedText, titleHeadline } from './snippets.ts';

export type ListRow = Omit<PostRow, 'description' | 'author_id' | 'author_email'>;
/** A post a full-text search found, with its snippet (see snippets.ts). */
export type FoundRow = ListRow & { snippet: { title: MarkedText; description: MarkedText } };

export interface CommentRow {
  id: string;
  post_id: string;
  text: string;
  author_id: string;
  /** As a post's (authorProfileId). */
  author_profile_id: string | null;
  author_name: string;
  author_email: string;
  author_photo: string;
  created_at: Date;
  edited_at: Date | null;
  revision_count: number;
  /** Only in the reads of its author or staff: hidden by staff (issue #43), why and when. */
  hidden_reason?: string | null;
  hidden_at?: Date | null;
}

/**
 * Whose view of what staff hid a read of comments takes (issue #43): nobody's (the shared rows:
 * neither a hidden post nor a hidden comment), staff's (all of it), or one member's (their own).
 */
export type HiddenView = { readonly staff: true } | { readonly memberId: string } | null;

/** Which page of a post's comments: in `order`, after `after` (null: from the start), at most `limit`. */
export interface CommentsPageOf {
  readonly order: ListOrder;
  readonly after: KeysetPosition | null;
  readonly limit: number;
}

/** A page of a post's comments, the post's comment count, and where the next page starts (null: this is the last). */
export interface CommentRows {
  readonly rows: CommentRow[];
  readonly total: number;
  readonly next: KeysetPosition | null;
}

export interface ReportRow {
  report_id: string;
  comment_id: string;
  text: string;
  post_id: string;
  author_name: string;
  author_email: string;
  author_photo: string;
  reporter_name: string;
  reporter_email: string;
  reporter_photo: string;
  feedback: ReportFeedback;
  reported_at: Date;
  report_count: number;
  warned: boolean;
}

export interface LeaderRow {
  user_id: string;
  name: string;
  photo_url: string;
  up_votes: number;
  /** false once they are erased (they have no user row then, nor a public profile). */
  has_profile: boolean;
}

export type ProfileRow = UserRow & { posts: number; comments: number; comments_received: number; up_votes: number };

/** A member's profile row and statistics, for the one member `where` (on `u`, read.users) finds. */
async function profileWhere(db: Knex, where: string, value: string): Promise<ProfileRow | null> {
  const { rows } = await db.raw<{ rows: ProfileRow[] }>(
    `SELECT u.*, coalesce(a.posts, 0) AS posts, coalesce(c.comments, 0) AS comments, coalesce(a.comments, 0) AS comments_received, coalesce(a.up_votes, 0) AS up_votes
     FROM read.users u
     LEFT JOIN read.author_stats a ON a.user_id = u.id
     LEFT JOIN read.commenter_stats c ON c.user_id = u.id
     WHERE ${where}`,
    [value],
  );
  return rows[0] ?? null;
}

/** A search's vectors leave out the few posts staff hid (issue #43): their ids once, from their partial index. */
const NOT_HIDDEN = 'p.id NOT IN (SELECT id FROM read.posts WHERE hidden_at IS NOT NULL)';

const counter = async (db: Knex, sql: string) => {
  const { rows } = await db.raw<{ rows: { value: string | number }[] }>(sql);
  return Number(rows[0]?.value ?? 0);
};

/** Comments, reports, notifications, the leaderboard, profiles and the searches. */
export function createCommunityStore(db: Knex) {
  return {
    /**
     * A page of a post's comments in `order` after `after` (a keyset position; null: from the
     * start), at most `limit`, and the post's comment count (its counter on the post's row); null
     * when there is no such post. One statement: the post's row, the page joined in through the
     * comments' index by post and time (comments_of_post), so any page costs what the first does.
     * `next` is where the page after this one starts (null when this one is the last). The same
     * for every reader (`hidden` null): which of them a reader reported is `reportedBy`. What
     * staff hid is in the page only for `hidden`'s view (see HiddenView).
     */
    async commentsOf(postId: string, page: CommentsPageOf, hidden: HiddenView = null): Promise<CommentRows | null> {
      const direction = page.order === 'oldest' ? 'ASC' : 'DESC';
      const [postShown, commentShown, viewerBindings] =
        hidden === null
          ? ['p.hidden_at IS NULL', 'c.hidden_at IS NULL', []]
          : 'staff' in hidden
            ? ['true', 'true', []]
            : ['(p.hidden_at IS NULL OR p.author_id = ?)', '(c.hidden_at IS NULL OR c.author_id = ?)', [hidden.memberId]];
      const { rows }: { rows: (CommentRow & { total: number; micros: string | null })[] } = await prepared(
        db,
        `SELECT p.comment_count AS total, c.*
         FROM read.posts p
         LEFT JOIN LATERAL (
           SELECT c.id, c.post_id, c.text, c.author_id, ${authorProfileId('c.')} AS author_profile_id, c.author_name, c.author_email, c.author_photo, c.created_at, c.edited_at, c.revision_count,
                  ${hidden === null ? '' : 'c.hidden_reason, c.hidden_at, '}${MICROS_OF('c.created_at')} AS micros
           FROM read.comments c
           WHERE c.post_id = p.id AND ${commentShown} ${page.after ? `AND (c.created_at, c.id) ${direction === 'ASC' ? '>' : '<'} (${AT_MICROS}, ?::uuid)` : ''}
           ORDER BY c.created_at ${direction}, c.id ${direction} LIMIT ?
         ) c ON true
         WHERE p.id = ? AND ${postShown}
         ORDER BY c.created_at ${direction}, c.id ${direction}`,
        [...viewerBindings, ...(page.after ? [page.after.micros, page.after.id] : []), page.limit + 1, postId, ...viewerBindings],
      );
      if (rows.length === 0) return null;
      const found = rows.filter((row) => row.id !== null);
      const last = found.length > page.limit ? found[page.limit - 1]! : null;
      return {
        rows: found.slice(0, page.limit).map(({ total: _, micros: __, ...row }) => row),
        total: Number(rows[0]!.total),
        next: last && { micros: last.micros!, id: last.id },
      };
    },

    /** Whether `memberId` wrote something on the post that staff hid (the post, or a comment under it): their reads of its comments are their own then. */
    async hidesFor(postId: string, memberId: string): Promise<boolean> {
      const { rows }: { rows: { any: boolean }[] } = await prepared(
        db,
        `SELECT EXISTS (SELECT 1 FROM read.posts WHERE id = ? AND author_id = ? AND hidden_at IS NOT NULL)
             OR EXISTS (SELECT 1 FROM read.comments WHERE post_id = ? AND author_id = ? AND hidden_at IS NOT NULL) AS any`,
        [postId, memberId, postId, memberId],
      );
      return rows[0]!.any;
    },

    /** Which of `commentIds` `readerId` reported (their open reports): one lookup by the reports' key (comment, reporter). */
    async reportedBy(readerId: string, commentIds: readonly string[]): Promise<ReadonlySet<string>> {
      if (commentIds.length === 0) return new Set();
      const { rows }: { rows: { comment_id: string }[] } = await prepared(
        db,
        'SELECT comment_id FROM read.comment_reports WHERE comment_id = ANY(?::uuid[]) AND reporter_id = ?',
        [[...commentIds], readerId],
      );
      return new Set(rows.map((row) => row.comment_id));
    },

    /** Open reports, one row per report, newest first (or oldest with `direction` ASC), and their total (a counter row). */
    async reports(limit: number, offset: number, direction: 'ASC' | 'DESC' = 'DESC'): Promise<{ rows: ReportRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db.raw<{ rows: ReportRow[] }>(
          `SELECT r.id AS report_id, r.comment_id, c.text, c.post_id, c.author_name, c.author_email, c.author_photo,
                  r.reporter_name, r.reporter_email, r.reporter_photo, r.feedback, r.reported_at, c.report_count,
                  EXISTS (SELECT 1 FROM read.notifications n WHERE n.comment_id = r.comment_id AND n.kind = 'warning') AS warned
           FROM read.comment_reports r JOIN read.comments c ON c.id = r.comment_id
           ORDER BY r.reported_at ${direction}, r.id ${direction} LIMIT ? OFFSET ?`,
          [limit, offset],
        ),
        counter(db, `SELECT value FROM read.comment_counters WHERE name = 'reports'`),
      ]);
      return { rows: rows.rows, total };
    },

    /** How far a member has read the announcements (the date of the newest they marked read), or null. */
    async announcementsReadUpTo(userId: string): Promise<Date | null> {
      const { rows }: { rows: { up_to: Date }[] } = await prepared(db, 'SELECT up_to FROM read.announcements_read WHERE user_id = ?', [userId]);
      return rows[0]?.up_to ?? null;
    },

    /** The leaderboard: up-votes received on live posts, from the per-author counter rows. */
    async topVoted(): Promise<LeaderRow[]> {
      const { rows }: { rows: LeaderRow[] } = await prepared(
        db,
        `SELECT s.user_id, s.name, s.photo_url, s.up_votes, EXISTS (SELECT 1 FROM read.users u WHERE u.id = s.user_id) AS has_profile
         FROM read.author_stats s WHERE s.up_votes > 0
         ORDER BY s.up_votes DESC, s.name, s.user_id LIMIT ?`,
        [LEADERBOARD_SIZE],
      );
      return rows;
    },

    /** A user by email with their statistics (counter rows), or null. */
    async profile(email: string): Promise<ProfileRow | null> {
      return profileWhere(db, 'lower(u.email) = lower(?) ORDER BY u.registered_at LIMIT 1', email);
    },

    /** A member's public profile by id, or by handle (ignoring case) when `ref` is `@handle`; null for an unknown or erased member. */
    async publicProfile(ref: string): Promise<ProfileRow | null> {
      return ref.startsWith('@') ? profileWhere(db, 'lower(u.handle) = lower(?)', ref.slice(1)) : profileWhere(db, 'u.id = ?', ref);
    },

    /** A page (PAGE_SIZE) of an author's live posts, newest first (an author's index). */
    async postsOfAuthor(authorId: string, page: number): Promise<ListRow[]> {
      const { rows } = await db.raw<{ rows: ListRow[] }>(
        `SELECT ${LIST_COLUMNS} FROM read.posts WHERE author_id = ? AND ${SHOWN} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [authorId, PAGE_SIZE, (page - 1) * PAGE_SIZE],
      );
      return rows;
    },

    async recentPosts(authorId: string): Promise<ListRow[]> {
      const { rows } = await db.raw<{ rows: ListRow[] }>(
        `SELECT ${LIST_COLUMNS} FROM read.posts WHERE author_id = ? AND ${SHOWN} ORDER BY created_at DESC, id DESC LIMIT ?`,
        [authorId, RECENT_POSTS],
      );
      return rows;
    },

    /**
     * Posts with a tag (ignoring case), newest first. `page` null: the spec's
     * unpaged call, at most UNPAGED_LIST_MAX. The total is the tag's counter row.
     */
    async byTag(tag: string, page: number | null): Promise<{ rows: ListRow[]; total: number }> {
      const limit = page === null ? UNPAGED_LIST_MAX : PAGE_SIZE;
      const offset = page === null ? 0 : (page - 1) * PAGE_SIZE;
      // a deep page through the page anchors
      if (offset > 0) {
        const anchored = await pageOf(db, { kind: 'tag', tag }, offset, limit, tagTotal(tag));
        if (anchored) return anchored;
      }
      const { rows }: { rows: (ListRow & { total: string | null })[] } = await prepared(
        db,
        // lower-cased as the posts projection lower-cases tags (PostgreSQL's lower()); the tag's
        // own index (post_tags) gives the newest, the posts their columns
        `SELECT (${tagTotal(tag).sql}) AS total, p.*
         FROM (SELECT 1) one
         LEFT JOIN (
           (SELECT id FROM read.post_tags WHERE tag_key = lower(?) ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) g
           CROSS JOIN LATERAL (SELECT ${LIST_COLUMNS} FROM read.posts WHERE id = g.id) p
         ) ON true
         ORDER BY p.created_at DESC, p.id DESC`,
        [...tagTotal(tag).bindings, tag, limit, offset],
      );
      return { rows: rows.filter((row) => row.id !== null).map(({ total: _, ...row }) => row), total: Number(rows[0]?.total ?? 0) };
    },

    /**
     * Full-text search over title (ranked higher) and description, in web-search syntax,
     * optionally within a tag. Bounded whatever the words: the candidates are the newest
     * SEARCH_MATCH_CAP matches (through the search index, or walking the vectors newest first
     * for a common word, as the planner finds cheaper), ranked best match first, then newest.
     * The total is exact up to the cap; `capped` says more match.
     */
    async fullText(q: string, tag: string | null, page: number): Promise<{ rows: FoundRow[]; total: number; capped: boolean }> {
      // Without a tag the vectors are read on their own, in creation order (post_search_newest):
      // walking them costs a page or two per hundred posts, where looking each post up by id cost
      // a few pages per post. Within a tag, the posts' tags decide.
      const matching =
        tag === null
          ? `SELECT p.id, p.created_at, p.search FROM read.post_search p WHERE p.search @@ websearch_to_tsquery('english', ?) AND ${NOT_HIDDEN}`
          : `SELECT p.id, p.created_at, p.search FROM read.posts p WHERE p.search @@ websearch_to_tsquery('english', ?) AND p.tag_keys @> ARRAY[lower(?)]::text[] AND p.${SHOWN}`;
      // The tsquery is written out in each place it is used (not taken from a CTE): the planner then
      // sees the words and estimates how many posts match, and walks the newest posts checking each
      // (a common word: a few thousand rows for the newest SEARCH_MATCH_CAP matches) or asks the
      // vector index (a rare one), whichever costs less
      // the snippets of the page's posts only, once ranked (ts_headline reads each whole text again)
      const headlines = titleHeadline(q);
      const bindings: Knex.RawBinding[] = [
        q,
        ...(tag === null ? [] : [tag]),
        SEARCH_MATCH_CAP + 1,
        q,
        SEARCH_MATCH_CAP,
        PAGE_SIZE,
        (page - 1) * PAGE_SIZE,
        ...headlines.bindings,
      ];
      const { rows } = await db.raw<{ rows: (ListRow & { total: number; rank: number | null; title_marked: string; description: string })[] }>(
        `WITH candidates AS MATERIALIZED (
           ${matching}
           ORDER BY p.created_at DESC, p.id DESC LIMIT ?
         ),
         ranked AS (
           SELECT c.id, c.created_at, ts_rank(c.search, websearch_to_tsquery('english', ?)) AS rank
           FROM (SELECT id, created_at, search FROM candidates ORDER BY created_at DESC, id DESC LIMIT ?) c
         ),
         hits AS (SELECT id, rank, created_at FROM ranked ORDER BY rank DESC, created_at DESC, id DESC LIMIT ? OFFSET ?)
         SELECT (SELECT count(*) FROM candidates)::integer AS total, h.rank, p.*
         FROM (SELECT 1) one
         LEFT JOIN (hits h JOIN LATERAL (SELECT ${LIST_COLUMNS}, description, ${headlines.sql} FROM read.posts WHERE id = h.id) p ON true) ON true
         ORDER BY h.rank DESC, p.created_at DESC, p.id DESC`,
        bindings,
      );
      const matches = Number(rows[0]?.total ?? 0);
      const found = rows.filter((row) => row.id !== null);
      const snippets = await descriptionSnippets(
        db,
        q,
        found.map((row) => row.description),
      );
      return {
        rows: found.map(({ total: _, rank: __, title_marked, description: ___, ...row }, i) => ({
          ...row,
          snippet: { title: markedText(title_marked), description: snippets[i] ?? [] },
        })),
        total: Math.min(matches, SEARCH_MATCH_CAP),
        capped: matches > SEARCH_MATCH_CAP,
      };
    },
  };
}
export type CommunityStore = ReturnType<typeof createCommunityStore>;
