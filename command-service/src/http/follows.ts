import { NoBody, PostIdParams, TagNameParams } from '@forum/contracts';
import type { CommandAppDeps, CommandRoutes } from './deps.ts';
import { accepted, memberCallOf, sendAccepted } from './context.ts';

/** A member's follows: posts and tags whose news notify them (docs/notifications.md). The same choice twice appends nothing. */
export function followRoutes(api: CommandRoutes, { commands, clock }: CommandAppDeps): void {
  api.put(
    '/posts/:id/follow',
    { schema: { answers: accepted(200), errors: ['NOT_FOUND', 'RATE_LIMITED'], params: PostIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.followPost(identity, request.params.id, meta, idempotency));
    },
  );

  api.delete(
    '/posts/:id/follow',
    { schema: { answers: accepted(200), errors: ['NOT_FOUND', 'RATE_LIMITED'], params: PostIdParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.unfollowPost(identity, request.params.id, meta, idempotency));
    },
  );

  api.put(
    '/tags/:name/follow',
    { schema: { answers: accepted(200), errors: ['NOT_FOUND', 'RATE_LIMITED'], params: TagNameParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.followTag(identity, request.params.name, meta, idempotency));
    },
  );

  api.delete(
    '/tags/:name/follow',
    { schema: { answers: accepted(200), errors: ['NOT_FOUND', 'RATE_LIMITED'], params: TagNameParams, body: NoBody } },
    async (request, reply) => {
      const { identity, meta, idempotency } = memberCallOf(request, clock());
      return sendAccepted(reply, 200, await commands.unfollowTag(identity, request.params.name, meta, idempotency));
    },
  );
}
