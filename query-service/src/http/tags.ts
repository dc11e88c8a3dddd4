import { Router } from 'express';
import type { TagsStore } from '../store/posts.ts';

export function tagRoutes(tags: TagsStore): Router {
  const router = Router();
  router.get('/tags', async (_req, res) => {
    res.json(await tags.names());
  });
  return router;
}
