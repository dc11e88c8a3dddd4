import { EmailParams, ListPostsQuery, PostIdParams, type PostCount, type PostDetail, type PostListItem, type PostsPage, type Vote } from '@forum/contracts';
import { ForbiddenError, NotFoundError, parseInput, UnauthenticatedError } from '@forum/platform';
import { Router } from 'express';
import type { PostRow, PostsStore } from '../store/posts.ts';
import type { UserRow, UsersStore } from '../store/users.ts';
import { rangeQuery, sendRange } from './range.ts';

type ListRow = Omit<PostRow, 'description' | 'author_id' | 'author_email'>;

export const listItem = (row: ListRow): PostListItem => ({
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

export function postDetail(row: PostRow & { my_vote?: Vote }, viewer: UserRow | undefined): PostDetail {
  return {
    ...listItem(row),
    description: row.description,
    ...(maySeeEmail(viewer, row.author_id) ? { authorEmail: row.author_email } : {}),
    ...(row.my_vote !== undefined ? { myVote: row.my_vote } : {}),
  };
}


/**
 * The user an `:email` path names, when the caller may see it: their own
 * email, or any email for an admin (404 when there is no such user).
 */
async function ownerOrAdmin(users: UsersStore, viewer: UserRow | undefined, email: string): Promise<UserRow> {
  if (!viewer) throw new UnauthenticatedError();
  if (viewer.email === email) return viewer;
  if (viewer.role !== 'admin') throw new ForbiddenError('You can only see your own posts');
  const user = await users.byEmail(email);
  if (!user) throw new NotFoundError('No such user');
  return user;
}

export function postRoutes(posts: PostsStore, users: UsersStore): Router {
  const router = Router();

  router.get('/my-posts/:email', async (req, res) => {
    const { email } = parseInput(EmailParams, req.params);
    const owner = await ownerOrAdmin(users, res.locals.viewer, email);
    res.json((await posts.byAuthor(owner.id)).map(listItem));
  });

  router.get('/user-post-count/:email', async (req, res) => {
    const { email } = parseInput(EmailParams, req.params);
    const owner = await ownerOrAdmin(users, res.locals.viewer, email);
    const body: PostCount = { count: await posts.countByAuthor(owner.id) };
    res.json(body);
  });

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
    const { id } = parseInput(PostIdParams, req.params);
    const row = await posts.byId(id, res.locals.viewer?.id);
    if (!row) throw new NotFoundError('No such post');
    res.json(postDetail(row, res.locals.viewer));
  });

  return router;
}
