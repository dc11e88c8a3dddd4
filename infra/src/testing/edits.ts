import { randomUUID } from 'node:crypto';
import { commentStream, postStream, type CommentEdited, type PostEdited } from '@forum/contracts';
import type { RecordedEvent, StreamAppend } from '@forum/eventstore';

type Edit = { type: 'PostEdited'; data: PostEdited['data'] } | { type: 'CommentEdited'; data: CommentEdited['data'] };

/** An edit as the command side appends it: on its post's or comment's stream, its editor the actor. */
export function editAppend(edit: Edit): StreamAppend {
  const streamId = edit.type === 'PostEdited' ? postStream(edit.data.postId) : commentStream(edit.data.commentId);
  const metadata = { actorId: edit.data.editorId, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
  return { streamId, expectedVersion: 'any', events: [{ type: edit.type, data: edit.data, metadata }] };
}

/** The fields of the events read here (each has those of its type). */
interface LoggedFields {
  readonly postId: string;
  readonly commentId: string;
  readonly authorId: string;
  readonly userId: string;
  readonly revision: number;
  readonly tags: string[];
}

interface Editable {
  readonly authorId: string;
  readonly postId: string;
  /** Its current visible revision, from the edits the log holds already. */
  revision: number;
  gone: boolean;
}

/**
 * Edits of a log's live posts and comments (every `every`th of each), as the command side would
 * decide them after the log: their author's new revision, then a fold into it (within the grace
 * period), then an admin's revision with a reason. An erased author's content is edited by the
 * admin alone. Revisions go on from the edits the log holds already.
 */
export function editsOfLog(log: readonly RecordedEvent[], every = 4, admin = 'admin-of-the-edits'): StreamAppend[] {
  const posts = new Map<string, Editable & { tags: string[] }>();
  const comments = new Map<string, Editable>();
  const erased = new Set<string>();
  const goes = (content: Editable | undefined) => content && (content.gone = true);
  for (const { type, data } of log as readonly RecordedEvent<string, LoggedFields>[]) {
    if (type === 'PostCreated') posts.set(data.postId, { authorId: data.authorId, postId: data.postId, revision: 1, gone: false, tags: data.tags });
    else if (type === 'CommentAdded') comments.set(data.commentId, { authorId: data.authorId, postId: data.postId, revision: 1, gone: false });
    else if (type === 'PostEdited' || type === 'CommentEdited') {
      const content = type === 'PostEdited' ? posts.get(data.postId) : comments.get(data.commentId);
      if (content) content.revision = Math.max(content.revision, data.revision);
    } else if (type === 'PostDeleted') goes(posts.get(data.postId));
    else if (type === 'CommentRemoved') goes(comments.get(data.commentId));
    else if (type === 'AccountErased') erased.add(data.userId);
  }
  const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  /** The edits of one post or comment, its fields made by `fields` from a revision's number. */
  const edits = <Data>(content: Editable, fields: (revision: number) => Data) => {
    const by = (editorId: string, revision: number, minutes: number, reason?: string) => ({
      authorId: content.authorId,
      editorId,
      ...fields(revision),
      ...(reason !== undefined && { reason }),
      revision,
      editedAt: at(minutes),
    });
    const own = erased.has(content.authorId) ? [] : [by(content.authorId, content.revision + 1, 1), by(content.authorId, content.revision + 1, 2)];
    return [...own, by(admin, content.revision + 1 + Math.min(own.length, 1), 10, 'Tidied up by an admin')];
  };
  // a comment goes with its post
  const live = <T extends Editable>(contents: Map<string, T>) =>
    [...contents].filter(([, content], i) => !content.gone && posts.get(content.postId)?.gone === false && i % every === 0);
  return [
    ...live(posts).flatMap(([postId, post]) =>
      edits(post, (revision) => ({ postId, title: `Edited title ${revision}`, description: `Edited, revision ${revision}`, tags: post.tags.slice(1) })).map(
        (data) => editAppend({ type: 'PostEdited', data }),
      ),
    ),
    ...live(comments).flatMap(([commentId, comment]) =>
      edits(comment, (revision) => ({ commentId, postId: comment.postId, text: `Edited comment, revision ${revision}` })).map((data) =>
        editAppend({ type: 'CommentEdited', data }),
      ),
    ),
  ];
}
