import { ListPostsQuery, PostDetail, type PostListItem, type PostsPage } from '@forum/contracts';
import { NotFoundError, parseInput } from '@forum/platform';
import { Router } from 'express';
import { z } from 'zod';
import type { PostRow, PostsStore } from '../store/posts.ts';
import type { UserRow } from '../store/users.ts';
import { rangeQuery, sendRange } from './range.ts';

type ListRow = Omit<PostRow, 'description' | 'author_id' | 'author_email'>;

const listItem = (row: ListRow): PostListItem => ({
  _id: row.id,
  title: row.title,
  summary: row.summary,
  tags: row.tags,
  authorName: row.author_name,
  authorPhoto: row.author_photo,
  createdAt: row.created_at.toISOString(),
  upVote: row.up_vote,
  downVote: row.down_vote,
  commentCount: row.comment_count,
});

/** Emails are shown only to their owner and to admins (the forum's role, not the token's). */
const maySeeEmail = (viewer: UserRow | undefined, ownerId: string) => viewer !== undefined && (viewer.id === ownerId || viewer.role === 'admin');

export function postDetail(row: PostRow, viewer: UserRow | undefined): PostDetail {
  return {
    ...listItem(row),
    description: row.description,
    ...(maySeeEmail(viewer, row.author_id) ? { authorEmail: row.author_email } : {}),
  };
}

const PostId = z.object({ id: z.string().uuid('Not a post id') });

export function postRoutes(posts: PostsStore): Router {
  const router = Router();

  router.get('/posts', async (req, res) => {
    const range = rangeQuery(req);
    if (range) {
      const { rows, total } = await posts.range(range.start, range.end, range.field, range.direction);
      sendRange(res, 'posts', rows.map((row) => ({ id: row.id, ...listItem(row) })), range.start, total);
      return;
    }
    const { page, sort } = parseInput(ListPostsQuery, req.query);
    const { rows, total } = await posts.page(page, sort);
    const body: PostsPage = { posts: rows.map(listItem), totalCount: total };
    res.json(body);
  });

  router.get('/posts/:id', async (req, res) => {
    const { id } = parseInput(PostId, req.params);
    const row = await posts.byId(id);
    if (!row) throw new NotFoundError('No such post');
    res.json(postDetail(row, res.locals.viewer));
  });

  return router;
}
