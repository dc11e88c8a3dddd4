import { CommentIdParams, PostIdParams, CommentRevisions, PostRevisions } from '@forum/contracts';
import { NotFoundError } from '@forum/platform';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { RevisionRow, RevisionsStore } from '../store/revisions.ts';

/** What every revision says: its number, time, editor and reason (when staff gave one). */
const revision = (row: RevisionRow) => ({
  number: row.number,
  editedAt: row.edited_at.toISOString(),
  editorName: row.editor_name,
  ...(row.reason !== null && { reason: row.reason }),
});

/**
 * A post's and a comment's revisions, oldest first (the newest REVISION_LIST_MAX), for anyone who
 * may read the content: 404 where its own read answers 404 (a deleted post, a removed comment).
 */
export function revisionRoutes(revisions: RevisionsStore): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get(
      '/posts/:id/revisions',
      { schema: { answers: { 200: { body: PostRevisions } }, errors: ['NOT_FOUND'], params: PostIdParams }, config: { publicRead: true, sharedBody: true } },
      async (request) => {
        const found = await revisions.ofPost(request.params.id);
        if (!found) throw new NotFoundError('No such post');
        const body: PostRevisions = {
          revisions: found.rows.map((row) => ({ ...revision(row), title: row.title, description: row.description, tags: row.tags })),
          totalCount: found.total,
        };
        return body;
      },
    );

    api.get(
      '/comments/:commentId/revisions',
      {
        schema: { answers: { 200: { body: CommentRevisions } }, errors: ['NOT_FOUND'], params: CommentIdParams },
        config: { publicRead: true, sharedBody: true },
      },
      async (request) => {
        const found = await revisions.ofComment(request.params.commentId);
        if (!found) throw new NotFoundError('No such comment');
        const body: CommentRevisions = { revisions: found.rows.map((row) => ({ ...revision(row), text: row.text })), totalCount: found.total };
        return body;
      },
    );
    done();
  };
}
