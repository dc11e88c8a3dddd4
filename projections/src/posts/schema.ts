import type { Knex } from '@forum/platform';
import { REPLAY_PROFILES_TABLE } from '../profile-changes.ts';
import type { Projection } from '../runner/projection.ts';
import { EDITED_COLUMNS, revisionsTable } from '../revisions.ts';
import { REPLAY_SPANS_TABLE } from '../staged-spans.ts';
import { PAGE_BLOCKS_MIGRATION } from './pages.ts';
import { POST_REVISIONS } from './writes.ts';

/** The posts' tables, their counters and page blocks, and what `apply` looks rows up by. */
export async function migratePosts(trx: Knex.Transaction) {
  await trx.raw(`
    CREATE TABLE IF NOT EXISTS posts (
      id uuid PRIMARY KEY,
      title text NOT NULL,
      description text NOT NULL,
      summary text NOT NULL,
      tags text[] NOT NULL,
      -- tag search ignores case: the lower-cased tags
      tag_keys text[] NOT NULL DEFAULT '{}',
      author_id text NOT NULL,
      author_name text NOT NULL,
      author_email text NOT NULL,
      author_photo text NOT NULL,
      created_at timestamptz NOT NULL,
      -- the log position of its PostCreated
      created_pos bigint NOT NULL,
      up_vote integer NOT NULL DEFAULT 0,
      down_vote integer NOT NULL DEFAULT 0,
      comment_count integer NOT NULL DEFAULT 0,
      score integer GENERATED ALWAYS AS (up_vote - down_vote) STORED,${EDITED_COLUMNS},
      -- staff's marks (issue #43): hidden (why, when; out of every list), locked (no new comments; why, if
      -- said), pinned (when: out of the home page's lists, shown first on its first page)
      hidden_reason text,
      hidden_at timestamptz,
      locked boolean NOT NULL DEFAULT false,
      lock_reason text,
      pinned_at timestamptz
    );
    -- the few posts staff took out of the lists (the read side's totals and searches leave them out; the home page's first page shows the pinned)
    CREATE INDEX IF NOT EXISTS posts_hidden ON posts (id) WHERE hidden_at IS NOT NULL;
    CREATE INDEX IF NOT EXISTS posts_pinned ON posts (pinned_at DESC) WHERE pinned_at IS NOT NULL;
    -- the revisions of edited posts (revisions.ts)
    ${revisionsTable(POST_REVISIONS)};
    -- each post's full-text vector (SEARCH_VECTOR), written with the post (a staged replay: when it settles)
    CREATE TABLE IF NOT EXISTS post_search (
      id uuid PRIMARY KEY,
      -- the post's, to walk the vectors newest first
      created_at timestamptz NOT NULL,
      search tsvector NOT NULL
    );
    -- Room on each page for one more version of every row: a settle's rewrite of each post, and a
    -- vote or comment count that changes no indexed column (all of them while a replay builds
    -- without the read indexes; comment counts and author names live), then stay on their page
    -- (HOT), with less WAL and a smaller table (the figures: docs/performance.md).
    ALTER TABLE posts SET (fillfactor = 50);
    -- a user's newest posts (profile, My Posts); also how a profile change finds the author's posts
    CREATE INDEX IF NOT EXISTS posts_author_newest ON posts (author_id, created_at DESC, id DESC);
    CREATE TABLE IF NOT EXISTS counters (name text PRIMARY KEY, value bigint NOT NULL);
    INSERT INTO counters (name, value) VALUES ('posts', 0) ON CONFLICT DO NOTHING;
    -- the number of posts per lower-cased tag
    CREATE TABLE IF NOT EXISTS tag_counters (tag_key text PRIMARY KEY, posts integer NOT NULL);
    -- each voter's current vote (the post page shows the caller's own)
    CREATE TABLE IF NOT EXISTS votes (
      post_id uuid NOT NULL,
      user_id text NOT NULL,
      vote text NOT NULL,
      PRIMARY KEY (post_id, user_id)
    );
    -- per author: live posts, and the up-votes and comments they received (leaderboard, profile)
    CREATE TABLE IF NOT EXISTS author_stats (
      user_id text PRIMARY KEY,
      name text NOT NULL,
      photo_url text NOT NULL,
      posts integer NOT NULL DEFAULT 0,
      up_votes integer NOT NULL DEFAULT 0,
      comments integer NOT NULL DEFAULT 0
    );
    -- a replay's stretch of the log to settle votes and counts from, and its name and photo changes
    -- with their log positions, until it settles (empty otherwise)
    ${REPLAY_SPANS_TABLE};
    ${REPLAY_PROFILES_TABLE};
  `);
  await trx.raw(PAGE_BLOCKS_MIGRATION);
}

// A vote rewrites its post's entry in each of these (the score changes): nothing else is indexed
export const POSTS_READ_INDEXES: NonNullable<Projection['indexes']> = {
  posts: [
    'CREATE INDEX IF NOT EXISTS posts_newest ON posts (created_at DESC, id DESC)',
    'CREATE INDEX IF NOT EXISTS posts_popular ON posts (score DESC, created_at DESC, id DESC)',
    'CREATE INDEX IF NOT EXISTS posts_tag_keys ON posts USING gin (tag_keys)',
  ],
  post_search: [
    'CREATE INDEX IF NOT EXISTS posts_search ON post_search USING gin (search)',
    'CREATE INDEX IF NOT EXISTS post_search_newest ON post_search (created_at DESC, id DESC)',
  ],
  author_stats: ['CREATE INDEX IF NOT EXISTS author_stats_top ON author_stats (up_votes DESC, name, user_id) WHERE up_votes > 0'],
};
