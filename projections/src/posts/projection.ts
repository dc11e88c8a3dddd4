import {
  summarize,
  type CommentAdded,
  type CommentRemoved,
  type PostCreated,
  type PostDeleted,
  type ProfileUpdated,
  type Vote,
  type VoteCast,
} from '@forum/contracts';
import type { RecordedEvent } from '@forum/command-service/eventstore';
import type { Knex } from '@forum/platform';
import type { Projection } from '../runner/projection.ts';

/**
 * Posts as the home page, the post page, the searches, the leaderboard and the
 * profile read them. Totals are counter rows (the posts total, posts per tag,
 * posts and up-votes per author): a count(*) per request does not scale (about
 * 17 req/s at 1M posts on this machine, against thousands from a row).
 *
 * Votes and comments reach a post as deltas: a VoteCast says `previous` →
 * `vote`, so the counts follow without reading any other vote, and a batch of
 * votes on one post becomes one UPDATE of that post.
 *
 * The migration is additive (ADD COLUMN / CREATE … IF NOT EXISTS and one-time
 * backfills recorded in `migrations`), so a read model built by an earlier
 * build keeps serving while it gains the new columns: nothing it had applied
 * needs replaying, since the events that feed the new columns are new too.
 */
export const postsProjection: Projection = {
  name: 'posts',
  version: 1,
  exposes: { posts: 'posts', post_counters: 'counters', post_votes: 'votes', author_stats: 'author_stats', post_tag_counters: 'tag_counters' },
  async migrate(trx) {
    await trx.raw(`
      CREATE TABLE IF NOT EXISTS posts (
        id uuid PRIMARY KEY,
        title text NOT NULL,
        description text NOT NULL,
        summary text NOT NULL,
        tags text[] NOT NULL,
        author_id text NOT NULL,
        author_name text NOT NULL,
        author_email text NOT NULL,
        author_photo text NOT NULL,
        created_at timestamptz NOT NULL,
        up_vote integer NOT NULL DEFAULT 0,
        down_vote integer NOT NULL DEFAULT 0,
        comment_count integer NOT NULL DEFAULT 0,
        score integer GENERATED ALWAYS AS (up_vote - down_vote) STORED
      );
      CREATE INDEX IF NOT EXISTS posts_newest ON posts (created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS posts_popular ON posts (score DESC, created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS posts_tags ON posts USING gin (tags);
      CREATE INDEX IF NOT EXISTS posts_author ON posts (author_id);
      CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO counters (name, value) VALUES ('posts', 0) ON CONFLICT DO NOTHING;

      -- tag search ignores case: the lower-cased tags, and the number of posts per lower-cased tag
      ALTER TABLE posts ADD COLUMN IF NOT EXISTS tag_keys text[] NOT NULL DEFAULT '{}';
      CREATE INDEX IF NOT EXISTS posts_tag_keys ON posts USING gin (tag_keys);
      CREATE TABLE IF NOT EXISTS tag_counters (tag_key text PRIMARY KEY, posts integer NOT NULL);
      -- full-text search over title (weight A) and description (B). PostgreSQL 18 makes a
      -- generated column virtual unless told otherwise, and a GIN index needs it STORED
      ALTER TABLE posts ADD COLUMN IF NOT EXISTS search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')
      ) STORED;
      CREATE INDEX IF NOT EXISTS posts_search ON posts USING gin (search);
      -- a user's newest posts (profile, My Posts)
      CREATE INDEX IF NOT EXISTS posts_author_newest ON posts (author_id, created_at DESC, id DESC);

      -- each voter's current vote (the post page shows the caller's own)
      CREATE TABLE IF NOT EXISTS votes (
        post_id uuid NOT NULL,
        user_id text NOT NULL,
        vote text NOT NULL,
        PRIMARY KEY (post_id, user_id)
      );
      -- per author: live posts and up-votes received on them (leaderboard, profile)
      CREATE TABLE IF NOT EXISTS author_stats (
        user_id text PRIMARY KEY,
        name text NOT NULL,
        photo_url text NOT NULL,
        posts integer NOT NULL DEFAULT 0,
        up_votes integer NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS author_stats_top ON author_stats (up_votes DESC, name, user_id) WHERE up_votes > 0;

      CREATE TABLE IF NOT EXISTS migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
    `);
    // one-time backfills of the new columns and counters from the posts already projected
    await trx.raw(`
      WITH first AS (INSERT INTO migrations (name) VALUES ('tags-authors-2026-11') ON CONFLICT DO NOTHING RETURNING 1),
      keys AS (
        UPDATE posts SET tag_keys = ARRAY(SELECT DISTINCT lower(t) FROM unnest(tags) AS t)
        WHERE EXISTS (SELECT 1 FROM first) AND cardinality(tags) > 0
      ),
      tagged AS (
        INSERT INTO tag_counters (tag_key, posts)
        SELECT k, count(DISTINCT p.id) FROM posts p, LATERAL (SELECT DISTINCT lower(t) AS k FROM unnest(p.tags) AS t) l
        WHERE EXISTS (SELECT 1 FROM first) GROUP BY k
        ON CONFLICT (tag_key) DO NOTHING
      )
      INSERT INTO author_stats (user_id, name, photo_url, posts, up_votes)
      SELECT DISTINCT ON (author_id) author_id, author_name, author_photo, count(*) OVER (PARTITION BY author_id), sum(up_vote) OVER (PARTITION BY author_id)
      FROM posts WHERE EXISTS (SELECT 1 FROM first)
      ORDER BY author_id, created_at DESC
      ON CONFLICT (user_id) DO NOTHING
    `);
  },
  async apply(trx, events) {
    // Runs of PostCreated become one set-based statement, and so do the votes and comment
    // counts between two other events: a batch costs a few round trips whatever its size,
    // which is what lets the projection keep up under load. Creates are flushed before the
    // deltas, which is their log order too (a vote or comment is decided on an existing post).
    let created: PostCreated['data'][] = [];
    let deltas = new Map<string, { up: number; down: number; comments: number }>();
    let votes = new Map<string, { postId: string; userId: string; vote: Vote }>();
    const deltaOf = (postId: string) => {
      let delta = deltas.get(postId);
      if (!delta) deltas.set(postId, (delta = { up: 0, down: 0, comments: 0 }));
      return delta;
    };
    const flush = async () => {
      if (created.length > 0) {
        const rows = created;
        created = [];
        await insertPosts(trx, rows);
      }
      if (deltas.size > 0 || votes.size > 0) {
        const changes = [...deltas].map(([postId, delta]) => ({ postId, ...delta }));
        const cast = [...votes.values()];
        deltas = new Map();
        votes = new Map();
        await applyDeltas(trx, changes, cast);
      }
    };
    for (const event of events) {
      switch (event.type) {
        case 'PostCreated':
          created.push((event as RecordedEvent<'PostCreated', PostCreated['data']>).data);
          break;
        case 'VoteCast': {
          const { postId, userId, previous, vote } = (event as RecordedEvent<'VoteCast', VoteCast['data']>).data;
          const delta = deltaOf(postId);
          delta.up += Number(vote === 'up') - Number(previous === 'up');
          delta.down += Number(vote === 'down') - Number(previous === 'down');
          votes.set(`${postId} ${userId}`, { postId, userId, vote });
          break;
        }
        case 'CommentAdded':
          deltaOf((event as RecordedEvent<'CommentAdded', CommentAdded['data']>).data.postId).comments += 1;
          break;
        case 'CommentRemoved':
          deltaOf((event as RecordedEvent<'CommentRemoved', CommentRemoved['data']>).data.postId).comments -= 1;
          break;
        case 'PostDeleted': {
          await flush();
          const { postId } = (event as RecordedEvent<'PostDeleted', PostDeleted['data']>).data;
          // the post leaves the lists, the totals, its tags' counts and its author's statistics
          await trx.raw(
            `WITH gone AS (DELETE FROM posts WHERE id = ? RETURNING author_id, up_vote, tag_keys),
             totals AS (UPDATE counters SET value = value - (SELECT count(*) FROM gone) WHERE name = 'posts'),
             tags AS (UPDATE tag_counters SET posts = posts - 1 WHERE tag_key IN (SELECT unnest(tag_keys) FROM gone)),
             voters AS (DELETE FROM votes WHERE post_id = ?)
             UPDATE author_stats s SET posts = s.posts - 1, up_votes = s.up_votes - g.up_vote FROM gone g WHERE s.user_id = g.author_id`,
            [postId, postId],
          );
          break;
        }
        case 'ProfileUpdated': {
          // posts and the leaderboard show their author's current name and photo
          await flush();
          // only the fields the update changed
          const { userId, changes } = (event as RecordedEvent<'ProfileUpdated', ProfileUpdated['data']>).data;
          const name = changes.name ?? null;
          const photo = changes.photoURL ?? null;
          await trx.raw(
            `WITH authored AS (UPDATE posts SET author_name = coalesce(?, author_name), author_photo = coalesce(?, author_photo) WHERE author_id = ?)
             UPDATE author_stats SET name = coalesce(?, name), photo_url = coalesce(?, photo_url) WHERE user_id = ?`,
            [name, photo, userId, name, photo, userId],
          );
          break;
        }
        default:
          break;
      }
    }
    await flush();
  },
};

async function insertPosts(trx: Knex.Transaction, created: readonly PostCreated['data'][]) {
  const rows = created.map((post) => ({ ...post, summary: summarize(post.description), tagKeys: [...new Set(post.tags.map((tag) => tag.toLowerCase()))] }));
  await trx.raw(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
         "postId" uuid, title text, description text, summary text, tags text[], "tagKeys" text[], "authorId" text,
         "authorName" text, "authorEmail" text, "authorPhoto" text, "createdAt" timestamptz)
     ),
     inserted AS (
       INSERT INTO posts (id, title, description, summary, tags, tag_keys, author_id, author_name, author_email, author_photo, created_at)
       SELECT "postId", title, description, summary, tags, "tagKeys", "authorId", "authorName", "authorEmail", "authorPhoto", "createdAt" FROM input
       ON CONFLICT (id) DO NOTHING
       RETURNING author_id, author_name, author_photo, tag_keys, created_at
     ),
     totals AS (UPDATE counters SET value = value + (SELECT count(*) FROM inserted) WHERE name = 'posts'),
     tags AS (
       INSERT INTO tag_counters (tag_key, posts)
       SELECT k, count(*) FROM inserted, unnest(tag_keys) AS k GROUP BY k
       ON CONFLICT (tag_key) DO UPDATE SET posts = tag_counters.posts + excluded.posts
     )
     INSERT INTO author_stats (user_id, name, photo_url, posts)
     SELECT DISTINCT ON (author_id) author_id, author_name, author_photo, count(*) OVER (PARTITION BY author_id)
     FROM inserted ORDER BY author_id, created_at DESC
     ON CONFLICT (user_id) DO UPDATE SET posts = author_stats.posts + excluded.posts, name = excluded.name, photo_url = excluded.photo_url`,
    [JSON.stringify(rows)],
  );
}

/**
 * Vote and comment deltas per post, the authors' up-votes that follow, and each
 * voter's latest vote, in one statement. A post deleted meanwhile has no row,
 * so what arrives for it changes nothing.
 */
async function applyDeltas(
  trx: Knex.Transaction,
  changes: readonly { postId: string; up: number; down: number; comments: number }[],
  cast: readonly { postId: string; userId: string; vote: Vote }[],
) {
  await trx.raw(
    `WITH delta AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x("postId" uuid, up integer, down integer, comments integer)),
     changed AS (
       UPDATE posts p SET up_vote = p.up_vote + d.up, down_vote = p.down_vote + d.down, comment_count = p.comment_count + d.comments
       FROM delta d WHERE p.id = d."postId" AND (d.up <> 0 OR d.down <> 0 OR d.comments <> 0)
       RETURNING p.author_id, d.up
     ),
     authors AS (
       UPDATE author_stats s SET up_votes = s.up_votes + a.up
       FROM (SELECT author_id, sum(up)::integer AS up FROM changed GROUP BY author_id) a
       WHERE s.user_id = a.author_id AND a.up <> 0
     ),
     cast_votes AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x("postId" uuid, "userId" text, vote text))
     INSERT INTO votes (post_id, user_id, vote)
     SELECT v."postId", v."userId", v.vote FROM cast_votes v WHERE EXISTS (SELECT 1 FROM posts p WHERE p.id = v."postId")
     ON CONFLICT (post_id, user_id) DO UPDATE SET vote = excluded.vote`,
    [JSON.stringify(changes), JSON.stringify(cast)],
  );
}
