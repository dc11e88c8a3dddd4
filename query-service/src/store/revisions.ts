import { DELETED_USER_NAME, REVISION_LIST_MAX } from '@forum/contracts';
import { prepared, type Knex } from '@forum/platform';

/** A revision as the read models keep it, with its editor's current name. */
export interface RevisionRow {
  number: number;
  edited_at: Date;
  editor_name: string;
  reason: string | null;
}

/** What is revised: the content's view, its revisions' view and their key, and the fields a revision carries. */
interface Revised {
  readonly content: string;
  readonly revisions: string;
  readonly key: string;
  readonly fields: readonly string[];
}

const POSTS: Revised = { content: 'read.posts', revisions: 'read.post_revisions', key: 'post_id', fields: ['title', 'description', 'tags'] };
const COMMENTS: Revised = { content: 'read.comments', revisions: 'read.comment_revisions', key: 'comment_id', fields: ['text'] };

/**
 * The newest REVISION_LIST_MAX revisions of the content `id` names, oldest first, and how many it
 * has; null when it is not there (deleted, removed, never written). Content never edited beyond its
 * first revision keeps no revision rows: its own row is that revision (as created, by its author).
 * An editor no longer among the users (erased) is DELETED_USER_NAME.
 */
async function revisionsOf<Fields>(db: Knex, revised: Revised, id: string): Promise<{ rows: (RevisionRow & Fields)[]; total: number } | null> {
  const fields = revised.fields.join(', ');
  const { rows }: { rows: (RevisionRow & Fields & { total: number })[] } = await prepared(
    db,
    `SELECT c.revision_count AS total, r.number, r.edited_at, r.reason, ${revised.fields.map((f) => `r.${f}`).join(', ')}, coalesce(u.name, ?) AS editor_name
     FROM ${revised.content} c
     CROSS JOIN LATERAL (
       (SELECT number, edited_at, editor_id, reason, ${fields} FROM ${revised.revisions} WHERE ${revised.key} = c.id ORDER BY number DESC LIMIT ?)
       UNION ALL
       SELECT 1, c.created_at, c.author_id, NULL, ${revised.fields.map((f) => `c.${f}`).join(', ')} WHERE c.revision_count = 1
     ) r
     LEFT JOIN read.users u ON u.id = r.editor_id
     WHERE c.id = ?
     ORDER BY r.number`,
    [DELETED_USER_NAME, REVISION_LIST_MAX, id],
  );
  if (rows.length === 0) return null;
  return { rows: rows.map(({ total: _, ...row }) => row as RevisionRow & Fields), total: rows[0]!.total };
}

/** The revisions of posts and comments. */
export function createRevisionsStore(db: Knex) {
  return {
    ofPost: (postId: string) => revisionsOf<{ title: string; description: string; tags: string[] }>(db, POSTS, postId),
    ofComment: (commentId: string) => revisionsOf<{ text: string }>(db, COMMENTS, commentId),
  };
}
export type RevisionsStore = ReturnType<typeof createRevisionsStore>;
