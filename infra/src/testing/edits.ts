import { randomUUID } from 'node:crypto';
import { commentStream, postStream, type CommentEdited, type PostEdited } from '@forum/contracts';
import type { StreamAppend } from '@forum/eventstore';

type Edit = { type: 'PostEdited'; data: PostEdited['data'] } | { type: 'CommentEdited'; data: CommentEdited['data'] };

/** An edit as the command side appends it: on its post's or comment's stream, its editor the actor. */
export function editAppend(edit: Edit): StreamAppend {
  const streamId = edit.type === 'PostEdited' ? postStream(edit.data.postId) : commentStream(edit.data.commentId);
  const metadata = { actorId: edit.data.editorId, correlationId: randomUUID(), causationId: null, requestId: null, schemaVersion: 1 };
  return { streamId, expectedVersion: 'any', events: [{ type: edit.type, data: edit.data, metadata }] };
}
