import type { Projection } from '../runner/projection.ts';
import { applyBatch, POSTS_TYPES, type PostsEvent } from './apply.ts';
import { pageBlockProblems, rebuildPageBlocks } from './pages.ts';
import { settleSearch, settleVotesCountsAndNames, stage } from './replay.ts';
import { migratePosts, POSTS_READ_INDEXES } from './schema.ts';

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
 * The read indexes (newest, popular, tags, full text, an author's newest) come
 * in `indexes`, built once a replay has caught up, so a replay does not rewrite
 * their entries at every vote.
 *
 * A rebuild replays in stages, set-wise from the log (`stage`): votes, comment
 * counts and name changes are settled once at the end (`settle`) by reading the
 * staged stretch of the log again (`replay_spans`), rather than rewriting a wide
 * post row at every vote. Each post keeps the log position it was created at
 * (`created_pos`), so a settled name change reaches exactly the posts it reached
 * in the log.
 *
 * Each post's full-text vector lives in a table of its own (`post_search`),
 * which `read.posts` joins in as its `search` column: a staged replay builds the
 * vectors as a settle step beside the votes and counts, rather than on the one
 * connection that stages the posts range by range. It keeps the post's creation
 * time under an index newest first, so a full-text search for a common word
 * walks the vectors in creation order, a page or two per hundred posts, instead
 * of looking each post up by id.
 *
 * `author_stats.comments` (My Profile's second statistic) moves by the same
 * comment deltas as the posts' own counts. Each page block keeps its size in its
 * key's index (`INCLUDE (size)`, pages.ts), so a deep page sums a list's block
 * sizes from the index alone.
 *
 * Staff's marks (issue #43, docs/moderation.md) are columns of the post: hidden (with its reason and
 * time) takes it out of every list, the home page's and its tags'; pinned out of the home page's
 * lists (its first page shows the pinned posts apart); locked changes no list. The counters stay
 * those of the live posts: the read side leaves the few hidden and pinned ones out of its totals.
 */
export const postsProjection: Projection<PostsEvent> = {
  name: 'posts',
  // what each version changed: docs/projections-versions.md
  version: 14,
  types: POSTS_TYPES,
  // a comment counts by its post's id: its text and author are not read
  opens: ['PostCreated', 'PostEdited', 'ProfileUpdated'],
  exposes: {
    // a post's vector is unique to it: a read that takes no `search` leaves the join out
    posts: { select: 'SELECT p.*, s.search FROM posts p LEFT JOIN post_search s ON s.id = p.id', tables: ['posts', 'post_search'] },
    post_counters: 'counters',
    post_votes: 'votes',
    author_stats: 'author_stats',
    post_tag_counters: 'tag_counters',
    post_page_blocks: 'page_blocks',
    post_page_settings: 'page_settings',
    post_tags: 'post_tags',
    post_search: 'post_search',
    post_revisions: 'post_revisions',
  },
  migrate: migratePosts,
  derived: { views: ['post_page_blocks', 'post_page_settings'], problems: pageBlockProblems, rebuild: rebuildPageBlocks },
  indexes: POSTS_READ_INDEXES,
  apply: applyBatch,
  replay: {
    stage,
    // each voter's latest vote with the posts' counts and names (one read of the log for both), and
    // the posts' vectors, at once: two steps of about 4.7 s each per million events
    settle: [settleVotesCountsAndNames, settleSearch],
  },
};
