import { MENTIONS_NOTIFIED_MAX } from '@forum/contracts';
import { mentionsIn } from '@forum/contracts/markdown';
import type { Knex } from '@forum/platform';
import type { ProjectedEvent } from '../runner/projection.ts';

/**
 * The fan-out of the notifications read model (see projection.ts and run.ts): the mentions of new or
 * edited texts, a run of new posts, a run of new comments, each in a few statements whatever the
 * number of members they reach (a comment on a post with 10,000 followers is one INSERT of 10,000 rows).
 *
 * A notification's id is made from its member and the log's event that started it (its stream and
 * version), so a replay of the log gives every row the id it had (an email names it): their md5,
 * shaped as a version 4 uuid (a subquery per row: a SQL function that names the hash once is not
 * inlined, and took twice as long, 135 ms against 68 ms for 10,000 rows on a loaded machine).
 */
const idOf = (member: string, stream: string, version: string) =>
  `(SELECT (substr(h, 1, 12) || '4' || substr(h, 14, 3) || substr('89ab', get_byte(decode(substr(h, 17, 2), 'hex'), 0) % 4 + 1, 1) || substr(h, 18))::uuid
    FROM md5(${member} || '/' || ${stream} || '/' || ${version}) AS h)`;

/** Where an event is in the log, for a notification it starts or moves. */
interface Source {
  /** The event's order in its run. */
  ord: number;
  sid: string;
  ver: number;
  pos: string;
}

const source = (event: ProjectedEvent, ord: number): Source => ({
  ord,
  sid: event.streamId,
  ver: event.streamVersion,
  pos: event.position.globalPosition.toString(),
});

/** A text that may mention members: a post's description or a comment, as created or edited. */
export interface MentioningText extends Source {
  textId: string;
  postId: string;
  commentId: string | null;
  author: string;
  at: string;
  handles: string[];
}

/** The handles a text names (folded, in order); a text without '@' is not parsed. */
const handlesIn = (text: string) => (text.includes('@') ? mentionsIn(text) : []);

/**
 * A post's description or a comment, as created or edited (an edit notifies only whom it adds: see
 * notifyMentions); `ord`: its order among the texts whose mentions are written together.
 */
export function mentioningText(event: PostCreated | CommentAdded | TextEdited, ord: number): MentioningText {
  const { postId, authorId } = event.data;
  const text = { ...source(event, ord), postId, author: authorId };
  switch (event.type) {
    case 'PostCreated':
      return { ...text, textId: postId, commentId: null, at: event.data.createdAt, handles: handlesIn(event.data.description) };
    case 'CommentAdded':
      return { ...text, textId: event.data.commentId, commentId: event.data.commentId, at: event.data.createdAt, handles: handlesIn(event.data.text) };
    case 'PostEdited':
      return { ...text, textId: postId, commentId: null, at: event.data.editedAt, handles: handlesIn(event.data.description) };
    case 'CommentEdited':
      return { ...text, textId: event.data.commentId, commentId: event.data.commentId, at: event.data.editedAt, handles: handlesIn(event.data.text) };
  }
}

export type PostCreated = ProjectedEvent<'PostCreated'>;
export type CommentAdded = ProjectedEvent<'CommentAdded'>;
export type TextEdited = ProjectedEvent<'PostEdited' | 'CommentEdited'>;

/** A member's new handle, not written yet; `ord`: where it comes among the texts (see notifyMentions). */
export interface HandleChange {
  ord: number;
  userId: string;
  handle: string;
}

/**
 * New mentions: each text's handles (folded, in order) resolved through the members' handles when it
 * was written (those the read model keeps, but for `changes` that came before it: a member's last one
 * then), never the author, nobody the text already notified (an edit notifies only whom it adds), and
 * at most MENTIONS_NOTIFIED_MAX members a text, the first ones it names. One notification each. The
 * texts are distinct (`textId`); texts and changes are ordered by their `ord`, each its own.
 */
export async function notifyMentions(trx: Knex.Transaction, texts: readonly MentioningText[], changes: readonly HandleChange[] = []) {
  const mentioning = texts.filter((text) => text.handles.length > 0);
  if (mentioning.length === 0) return;
  await trx.raw(
    `WITH t AS (
       SELECT * FROM jsonb_to_recordset(:texts::jsonb) AS t(
         ord int, sid text, ver int, pos bigint, "textId" uuid, "postId" uuid, "commentId" uuid, author text, at timestamptz, handles text[])
     ),
     c AS (SELECT ord, "userId", lower(handle) AS handle FROM jsonb_to_recordset(:changes::jsonb) AS c(ord int, "userId" text, handle text)),
     -- the handles each text names, as they were when it was written
     held AS (
       SELECT t.ord, h.user_id, h.handle FROM t JOIN handles h ON h.handle = ANY (t.handles)
       WHERE NOT EXISTS (SELECT 1 FROM c WHERE c."userId" = h.user_id AND c.ord < t.ord)
       UNION ALL
       SELECT ord, user_id, handle FROM (
         SELECT DISTINCT ON (t.ord, c."userId") t.ord, c."userId" AS user_id, c.handle, t.handles
         FROM t JOIN c ON c.ord < t.ord ORDER BY t.ord, c."userId", c.ord DESC
       ) latest WHERE handle = ANY (handles)
     ),
     named AS (
       SELECT DISTINCT ON (t.ord, h.user_id) t.*, h.user_id, w.n
       FROM t CROSS JOIN LATERAL unnest(t.handles) WITH ORDINALITY AS w(handle, n)
       JOIN held h ON h.ord = t.ord AND h.handle = w.handle
       WHERE h.user_id <> t.author
         AND NOT EXISTS (SELECT 1 FROM mentioned m WHERE m.text_id = t."textId" AND m.user_id = h.user_id)
       ORDER BY t.ord, h.user_id, w.n
     ),
     ranked AS (
       SELECT named.*, row_number() OVER (PARTITION BY named.ord ORDER BY named.n)
         + (SELECT count(*) FROM mentioned m WHERE m.text_id = named."textId") AS rank
       FROM named
     ),
     kept AS (SELECT * FROM ranked WHERE rank <= :max),
     remembered AS (INSERT INTO mentioned (text_id, user_id) SELECT "textId", user_id FROM kept ON CONFLICT DO NOTHING)
     INSERT INTO notifications (id, user_id, kind, post_id, comment_id, actor_id, count, created_at, updated_at, read, position)
     SELECT ${idOf('user_id', 'sid', 'ver')}, user_id, 'mention', "postId", "commentId", author, 1, at, at, false, pos FROM kept
     ON CONFLICT (id) DO NOTHING`,
    { texts: JSON.stringify(mentioning), changes: JSON.stringify(changes), max: MENTIONS_NOTIFIED_MAX },
  );
}

/** Writes members' new handles (folded; a member's last change stands). */
export async function writeHandles(trx: Knex.Transaction, changes: readonly HandleChange[]) {
  if (changes.length === 0) return;
  await trx.raw(
    `INSERT INTO handles (user_id, handle)
     SELECT DISTINCT ON ("userId") "userId", lower(handle) FROM jsonb_to_recordset(?::jsonb) AS c(ord int, "userId" text, handle text)
     ORDER BY "userId", ord DESC
     ON CONFLICT (user_id) DO UPDATE SET handle = EXCLUDED.handle`,
    [JSON.stringify(changes)],
  );
}

/** A run of new posts: each is followed by its author. */
export async function writePosts(trx: Knex.Transaction, events: readonly PostCreated[]) {
  if (events.length === 0) return;
  await trx.raw(
    `WITH p AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS p("postId" uuid, author text)),
     authors AS (INSERT INTO post_authors (post_id, author_id) SELECT "postId", author FROM p ON CONFLICT DO NOTHING)
     INSERT INTO post_followers (post_id, user_id, following, explicit) SELECT "postId", author, true, false FROM p ON CONFLICT DO NOTHING`,
    [JSON.stringify(events.map(({ data }) => ({ postId: data.postId, author: data.authorId })))],
  );
}

/**
 * A run of new posts, once their mentions are written (see notifyMentions): each reaches the members
 * who follow one of its tags (once, by the first of its tags they follow), but for its author and
 * those it mentions (the mention is their notification).
 */
export async function reachTagFollowers(trx: Knex.Transaction, events: readonly PostCreated[]) {
  const posts = events
    .map((event, ord) => {
      const { postId, authorId, tags, createdAt } = event.data;
      return { ...source(event, ord), postId, author: authorId, at: createdAt, tags };
    })
    .filter((post) => post.tags.length > 0);
  if (posts.length === 0) return;
  await trx.raw(
    `WITH p AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS p(ord int, sid text, ver int, pos bigint, "postId" uuid, author text, at timestamptz, tags text[])),
     reached AS (
       SELECT DISTINCT ON (p.ord, f.user_id) p.*, f.user_id, t.tag
       FROM p CROSS JOIN LATERAL unnest(p.tags) WITH ORDINALITY AS t(tag, n)
       JOIN tag_followers f ON f.tag_key = lower(t.tag)
       WHERE f.user_id <> p.author AND NOT EXISTS (SELECT 1 FROM mentioned m WHERE m.text_id = p."postId" AND m.user_id = f.user_id)
       ORDER BY p.ord, f.user_id, t.n
     )
     INSERT INTO notifications (id, user_id, kind, post_id, actor_id, tag, count, created_at, updated_at, read, position)
     SELECT ${idOf('user_id', 'sid', 'ver')}, user_id, 'followed-tag', "postId", author, tag, 1, at, at, false, pos FROM reached
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(posts)],
  );
}

/**
 * A run of new comments, as if one at a time, once their mentions are written (see notifyMentions):
 * each reaches its post's followers (its author as a `reply`, the others as `followed-post`) but its
 * own author and those it mentioned; its author follows the post from then on unless they chose otherwise. A member's unread
 * notification of a kind about a post takes in the comments that come after it (their count, the
 * latest actor and time; it keeps the first comment); a read one stays as it is and the next comment
 * starts another.
 */
export async function writeComments(trx: Knex.Transaction, events: readonly CommentAdded[]) {
  if (events.length === 0) return;
  const comments = events.map((event, ord) => {
    const { commentId, postId, authorId, createdAt } = event.data;
    return { ...source(event, ord), postId, commentId, author: authorId, at: createdAt };
  });
  await trx.raw(
    `WITH c AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS c(ord int, sid text, ver int, pos bigint, "postId" uuid, "commentId" uuid, author text, at timestamptz)
     ),
     -- the run's commenters follow the post from their first comment on, unless they chose before the run
     joined AS (
       SELECT "postId", author, min(ord) AS ord FROM c
       WHERE NOT EXISTS (SELECT 1 FROM post_followers f WHERE f.post_id = c."postId" AND f.user_id = c.author)
       GROUP BY "postId", author
     ),
     followers AS (
       SELECT c.ord, f.user_id FROM c JOIN post_followers f ON f.post_id = c."postId" AND f.following
       UNION
       SELECT c.ord, j.author FROM c JOIN joined j ON j."postId" = c."postId" AND j.ord < c.ord
     ),
     reached AS (
       SELECT c.*, r.user_id, CASE WHEN r.user_id = a.author_id THEN 'reply' ELSE 'followed-post' END AS kind
       FROM followers r JOIN c ON c.ord = r.ord JOIN post_authors a ON a.post_id = c."postId"
       WHERE r.user_id <> c.author AND NOT EXISTS (SELECT 1 FROM mentioned m WHERE m.text_id = c."commentId" AND m.user_id = r.user_id)
     ),
     -- the first and the last comment a member's notification counts (no sort: two numbers a group)
     collapsed AS (SELECT user_id, "postId", kind, count(*)::int AS count, min(ord) AS first, max(ord) AS last FROM reached GROUP BY 1, 2, 3),
     defaults AS (
       INSERT INTO post_followers (post_id, user_id, following, explicit)
       SELECT j."postId", j.author, true, false FROM joined j WHERE EXISTS (SELECT 1 FROM post_authors a WHERE a.post_id = j."postId")
       ON CONFLICT DO NOTHING
     )
     INSERT INTO notifications (id, user_id, kind, post_id, comment_id, actor_id, count, created_at, updated_at, read, position)
     SELECT ${idOf('k.user_id', 'f.sid', 'f.ver')}, k.user_id, k.kind, k."postId", f."commentId", l.author, k.count, f.at, l.at, false, l.pos
     FROM collapsed k JOIN c f ON f.ord = k.first JOIN c l ON l.ord = k.last
     ON CONFLICT (user_id, post_id, kind) WHERE NOT read AND kind IN ('reply', 'followed-post')
     DO UPDATE SET count = notifications.count + EXCLUDED.count, actor_id = EXCLUDED.actor_id,
                   updated_at = EXCLUDED.updated_at, position = EXCLUDED.position`,
    [JSON.stringify(comments)],
  );
}
