import type { PostCreated, PostEdited, Vote } from '@forum/contracts';
import type { Knex } from '@forum/platform';
import { AUTHOR, carryProfileChange, mergeProfileChange, ONE_ERASURE, oneErasure, type MergedProfileChange } from '../profile-changes.ts';
import { editColumns, editRow } from '../revisions.ts';
import { AUTHORS_COUNTS, deletePosts, editPosts, eraseAuthors, insertPostsFrom, MODERATION_COLUMNS, moderatePosts, POST_REVISIONS } from './writes.ts';
import { preparedInBuild } from '../runner/build-schema.ts';
import type { ProjectedEvent } from '../runner/projection.ts';

/** The event types the posts read. */
export const POSTS_TYPES = [
  'PostCreated',
  'PostEdited',
  'PostDeleted',
  'VoteCast',
  'CommentAdded',
  'CommentRemoved',
  'ProfileUpdated',
  'AccountErased',
  'PostHidden',
  'PostUnhidden',
  'PostLocked',
  'PostUnlocked',
  'PostPinned',
  'PostUnpinned',
] as const;
export type PostsEvent = ProjectedEvent<(typeof POSTS_TYPES)[number]>;

export async function applyBatch(trx: Knex.Transaction, events: readonly PostsEvent[]) {
  // A batch is folded here and written in at most six statements, whatever its size, in an
  // order that gives what the log's order gives:
  //   1. authors' name and photo changes, on the rows that were there before the batch (the
  //      batch's own posts carry the changes that came after them);
  //   2. the batch's posts; 3. their edits (each post as its latest; an edit is decided on an
  //      existing post, before its deletion); 4. its votes and comment counts, as deltas per post
  //      (a vote or comment is decided on an existing post, so after the post in the log);
  //   5. its deletions: a post created and deleted in the batch is counted and uncounted, and
  //      what raced a deletion (a vote, a comment) is counted on the row and leaves with it.
  // The one order these steps cannot give, a post created after a vote, comment or deletion of
  // its id in the batch, cannot come from the command side; it starts a new segment all the same.
  // An erasure ends a segment too: it is written after what came before it.
  let segment = newSegment();
  for (const event of events) {
    switch (event.type) {
      case 'PostCreated': {
        const post = event.data;
        if (segment.touched.has(post.postId)) {
          await applySegment(trx, segment);
          segment = newSegment();
        }
        // the first of two creates of one id wins (ON CONFLICT DO NOTHING), in the batch as in the table
        if (!segment.created.has(post.postId)) segment.created.set(post.postId, { ...post, createdPos: event.position.globalPosition.toString() });
        break;
      }
      case 'PostEdited': {
        const edit = event.data;
        segment.touched.add(edit.postId);
        segment.edits.push(editRow(edit.postId, edit, EDITED_FIELDS, event.position.globalPosition));
        break;
      }
      case 'VoteCast': {
        const { postId, userId, previous, vote } = event.data;
        const delta = deltaOf(segment, postId);
        delta.up += Number(vote === 'up') - Number(previous === 'up');
        delta.down += Number(vote === 'down') - Number(previous === 'down');
        segment.votes.set(`${postId} ${userId}`, { postId, userId, vote, pos: event.position.globalPosition.toString() });
        break;
      }
      case 'CommentAdded':
        deltaOf(segment, event.data.postId).comments += 1;
        break;
      case 'CommentRemoved':
        deltaOf(segment, event.data.postId).comments -= 1;
        break;
      case 'PostDeleted': {
        const { postId } = event.data;
        segment.touched.add(postId);
        segment.deleted.add(postId);
        break;
      }
      case 'PostHidden':
      case 'PostUnhidden': {
        const hidden = event.type === 'PostHidden' ? event.data : null;
        markOf(segment, event.data.postId).hide = { hidden_reason: hidden?.reason ?? null, hidden_at: hidden?.hiddenAt ?? null };
        break;
      }
      case 'PostLocked':
      case 'PostUnlocked': {
        const locked = event.type === 'PostLocked' ? event.data : null;
        markOf(segment, event.data.postId).lock = { locked: locked !== null, lock_reason: locked?.reason ?? null };
        break;
      }
      case 'PostPinned':
      case 'PostUnpinned':
        markOf(segment, event.data.postId).pin = { pinned_at: event.type === 'PostPinned' ? event.data.pinnedAt : null };
        break;
      case 'ProfileUpdated': {
        // posts and the leaderboard show their author's current name and photo; only the
        // fields the update changed (a v1 event arrives upcast with both)
        const { userId, changes } = event.data;
        mergeProfileChange(segment.profileChanges, userId, changes);
        carryProfileChange(segment.created.values(), AUTHOR, userId, changes);
        break;
      }
      case 'AccountErased': {
        // after everything before it; their posts themselves were deleted by their own events if they chose so
        await applySegment(trx, segment);
        segment = newSegment();
        await eraseAuthors(trx, ONE_ERASURE, oneErasure(event.data));
        break;
      }
      default:
        event satisfies never;
    }
  }
  await applySegment(trx, segment);
}

type CreatedPost = PostCreated['data'] & { createdPos: string };

const EDITED_FIELDS = ['title', 'description', 'tags'] as const satisfies readonly (keyof PostEdited['data'])[];

interface Segment {
  created: Map<string, CreatedPost>;
  /** The edits, in log order (rows of `editColumns`). */
  edits: Record<string, unknown>[];
  deltas: Map<string, { up: number; down: number; comments: number }>;
  /** Each voter's latest vote on a post. */
  votes: Map<string, { postId: string; userId: string; vote: Vote; pos: string }>;
  deleted: Set<string>;
  /** Staff's latest marks per post. */
  marks: Map<string, Marks>;
  /** Name and photo changes, merged per person. */
  profileChanges: Map<string, MergedProfileChange>;
  /** Post ids with an edit, a delta, a mark or a deletion in the segment. */
  touched: Set<string>;
}

function newSegment(): Segment {
  return {
    created: new Map(),
    edits: [],
    deltas: new Map(),
    votes: new Map(),
    deleted: new Set(),
    marks: new Map(),
    profileChanges: new Map(),
    touched: new Set(),
  };
}

interface Marks {
  hide?: { hidden_reason: string | null; hidden_at: string | null };
  lock?: { locked: boolean; lock_reason: string | null };
  pin?: { pinned_at: string | null };
}

function markOf(segment: Segment, postId: string): Marks {
  let marks = segment.marks.get(postId);
  if (!marks) {
    segment.marks.set(postId, (marks = {}));
    segment.touched.add(postId);
  }
  return marks;
}

function deltaOf(segment: Segment, postId: string) {
  let delta = segment.deltas.get(postId);
  if (!delta) {
    segment.deltas.set(postId, (delta = { up: 0, down: 0, comments: 0 }));
    segment.touched.add(postId);
  }
  return delta;
}

async function applySegment(trx: Knex.Transaction, segment: Segment) {
  if (segment.profileChanges.size > 0) {
    const changes = [...segment.profileChanges.values()];
    const ids = changes.map((change) => change.userId);
    await trx.raw(
      `UPDATE posts p SET author_name = coalesce(x.name, p.author_name), author_photo = coalesce(x."photoURL", p.author_photo)
         FROM jsonb_to_recordset(?::jsonb) AS x("userId" text, name text, "photoURL" text)
         WHERE p.author_id = x."userId" AND p.author_id = ANY (?::text[])`,
      // the ids again as an array: the planner then reads the rows through the index, not the whole table
      [JSON.stringify(changes), ids],
    );
    // the leaderboard's rows (one per person)
    await trx.raw(
      `UPDATE author_stats s SET name = coalesce(x.name, s.name), photo_url = coalesce(x."photoURL", s.photo_url)
       FROM jsonb_to_recordset(?::jsonb) AS x("userId" text, name text, "photoURL" text) WHERE s.user_id = x."userId" AND s.user_id = ANY (?::text[])`,
      [JSON.stringify(changes), ids],
    );
  }
  if (segment.created.size > 0) await insertPosts(trx, [...segment.created.values()]);
  if (segment.edits.length > 0)
    await editPosts(trx, `SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(${editColumns(POST_REVISIONS)})`, [JSON.stringify(segment.edits)]);
  if (segment.deltas.size > 0) {
    await applyDeltas(
      trx,
      [...segment.deltas].filter(([, d]) => d.up !== 0 || d.down !== 0 || d.comments !== 0).map(([postId, delta]) => ({ postId, ...delta })),
      [...segment.votes.values()].map(({ postId, userId, vote }) => ({ postId, userId, vote })),
    );
  }
  if (segment.marks.size > 0) {
    const rows = [...segment.marks].map(([id, { hide, lock, pin }]) => ({ id, hide: !!hide, ...hide, lock: !!lock, ...lock, pin: !!pin, ...pin }));
    await moderatePosts(trx, `SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(${MODERATION_COLUMNS})`, [JSON.stringify(rows)]);
  }
  // the posts leave the lists, the totals, their tags' counts and their authors' statistics
  if (segment.deleted.size > 0) await deletePosts(trx, 'SELECT unnest(?::uuid[])', [[...segment.deleted]]);
}

async function insertPosts(trx: Knex.Transaction, created: readonly CreatedPost[]) {
  await insertPostsFrom(
    trx,
    'with their vectors',
    `SELECT * FROM jsonb_to_recordset(?::jsonb) AS x(
       "postId" uuid, title text, description text, tags text[], "authorId" text,
       "authorName" text, "authorEmail" text, "authorPhoto" text, "createdAt" timestamptz, "createdPos" bigint)`,
    [JSON.stringify(created)],
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
  await preparedInBuild(
    trx,
    `WITH delta AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x("postId" uuid, up integer, down integer, comments integer)),
     changed AS (
       UPDATE posts p SET up_vote = p.up_vote + d.up, down_vote = p.down_vote + d.down, comment_count = p.comment_count + d.comments
       FROM delta d WHERE p.id = d."postId" AND (d.up <> 0 OR d.down <> 0 OR d.comments <> 0)
       RETURNING p.author_id, d.up, d.comments
     ),
     authors AS (${AUTHORS_COUNTS}),
     cast_votes AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS x("postId" uuid, "userId" text, vote text))
     INSERT INTO votes (post_id, user_id, vote)
     SELECT v."postId", v."userId", v.vote FROM cast_votes v WHERE EXISTS (SELECT 1 FROM posts p WHERE p.id = v."postId")
     ON CONFLICT (post_id, user_id) DO UPDATE SET vote = excluded.vote`,
    [JSON.stringify(changes), JSON.stringify(cast)],
  );
}
