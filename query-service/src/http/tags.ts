import { Router } from 'express';
import type { TagsStore } from '../store/posts.ts';
import { totalCountHeaders } from './range.ts';

export function tagRoutes(tags: TagsStore): Router {
  const router = Router();
  /** The spec's tag list: its first TAG_LIST_MAX names, by name; all of them counted in X-Total-Count. */
  router.get('/tags', async (_req, res) => {
    const { names, total } = await tags.names();
    res.set(totalCountHeaders(total)).json(names);
  });
  return router;
}
