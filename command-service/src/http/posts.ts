import { CreatePostRequest, NoBody, PostIdParams } from '@forum/contracts';
import { parseInput, principalOf, requireAuth } from '@forum/platform';
import { Router } from 'express';
import { newId } from '../ids.ts';
import type { CommandAppDeps } from './app.ts';
import type { ForumCommands } from '../domain/forum.ts';
import { callOf, commandMeta, identityOf, idempotencyOf, sendAccepted, type RouteCommand } from './context.ts';

/** POST /api/posts (a hot command, see createHotCommands): the post's id is the request's own. */
export const createPost =
  (commands: ForumCommands): RouteCommand =>
  async (principal, _params, body, call) => {
    const input = parseInput(CreatePostRequest, body);
    const { meta, idempotency } = call();
    return commands.createPost(identityOf(principal), { postId: newId(), title: input.title, description: input.description, tags: input.tags }, meta, idempotency);
  };

export function postRoutes({ commands, verifyToken, clock }: CommandAppDeps): Router {
  const router = Router();

  const post = createPost(commands);
  router.post('/posts', requireAuth(verifyToken), async (req, res) => {
    const principal = principalOf(res);
    sendAccepted(res, 201, await post(principal, req.params, req.body, () => callOf(req, principal, clock())));
  });

  router.delete('/my-posts/:id', requireAuth(verifyToken), async (req, res) => {
    const principal = principalOf(res);
    const { id } = parseInput(PostIdParams, req.params);
    parseInput(NoBody, req.body);
    sendAccepted(res, 200, await commands.deletePost(identityOf(principal), id, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  return router;
}
