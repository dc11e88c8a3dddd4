import { randomUUID } from 'node:crypto';
import { CreatePostRequest, PostIdParams } from '@forum/contracts';
import { parseInput, principalOf, requireAuth } from '@forum/platform';
import { Router } from 'express';
import type { CommandAppDeps } from './app.ts';
import { commandMeta, identityOf, idempotencyOf, sendAccepted } from './context.ts';

export function postRoutes({ commands, verifyToken, clock }: CommandAppDeps): Router {
  const router = Router();

  router.post('/posts', requireAuth(verifyToken), async (req, res) => {
    const principal = principalOf(res);
    const body = parseInput(CreatePostRequest, req.body);
    const executed = await commands.createPost(
      identityOf(principal),
      { postId: randomUUID(), title: body.title, description: body.description, tags: body.tags },
      commandMeta(req, principal, clock()),
      idempotencyOf(req, principal),
    );
    sendAccepted(res, 201, executed);
  });

  router.delete('/my-posts/:id', requireAuth(verifyToken), async (req, res) => {
    const principal = principalOf(res);
    const { id } = parseInput(PostIdParams, req.params);
    sendAccepted(res, 200, await commands.deletePost(identityOf(principal), id, commandMeta(req, principal, clock()), idempotencyOf(req, principal)));
  });

  return router;
}
