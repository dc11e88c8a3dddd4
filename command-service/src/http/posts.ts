import { CreatePostRequest, EditPostRequest, NoBody, PostIdParams } from '@forum/contracts';
import { newId } from '../ids.ts';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, memberCallOf, sendAccepted } from './context.ts';

export function postRoutes(api: CommandRoutes, { commands, clock }: CommandAppDeps): void {
  /** The post's id is the request's own. */
  api.post(
    '/posts',
    { schema: { answers: accepted(201), errors: ['POST_LIMIT_REACHED', 'MEMBER_SUSPENDED', 'RATE_LIMITED'], body: CreatePostRequest } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const { title, description, tags } = request.body;
      return sendAccepted(reply, 201, await commands.createPost(identity, { postId: newId(), title, description, tags }, meta, idempotency));
    },
  );

  /** Only the fields sent change (docs/product.md, Editing). */
  api.patch(
    '/posts/:id',
    {
      schema: {
        answers: accepted(200),
        errors: ['FORBIDDEN', 'NOT_FOUND', 'EDIT_REASON_REQUIRED', 'MEMBER_SUSPENDED', 'RATE_LIMITED'],
        params: PostIdParams,
        body: EditPostRequest,
      },
    },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      const edit = { postId: request.params.id, ...request.body };
      return sendAccepted(reply, 200, await commands.editPost(identity, edit, meta, idempotency));
    },
  );

  api.delete(
    '/my-posts/:id',
    { schema: { answers: accepted(200), errors: ['FORBIDDEN', 'NOT_FOUND', 'STAFF_PROTECTED'], params: PostIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.deletePost(identity, request.params.id, meta, idempotency));
    },
  );
}
