import { EmailParams, ListPostsQuery, PostIdParams, type PostCount, type PostDetail, type PostListItem, type PostsPage, type Vote } from '@forum/contracts';
import { NotFoundError, parseInput } from '@forum/platform';
import { Router } from 'express';
import type { SharedPosts } from '../reads/shared-posts.ts';
import type { PostRow, PostsStore } from '../store/posts.ts';
import type { UserRow, UsersStore } from '../store/users.ts';
import { maySeeEmail, ownerOrAdmin } from './access.ts';
import { rangeQuery, sendRange, totalCountHeaders } from './range.ts';

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


export function postDetail(row: PostRow & { my_vote?: Vote }, viewer: UserRow | undefined): PostDetail {
  return {
    ...listItem(row),
    description: row.description,
    ...(maySeeEmail(viewer, row.author_id) ? { authorEmail: row.author_email } : {}),
    ...(row.my_vote !== undefined ? { myVote: row.my_vote } : {}),
    ...(viewer !== undefined ? { byMe: row.author_id === viewer.id } : {}),
  };
}


/** The home page (spec §7 GET /posts): a page of the newest or most popular posts, and their total. */
export async function homePage(posts: PostsStore, { page, sort }: ListPostsQuery): Promise<PostsPage> {
  const { rows, total } = await posts.page(page, sort);
  return { posts: rows.map(listItem), totalCount: total };
}

/**
 * A post as `viewer` may see it: the post as everyone reads it (kept, see SharedPosts), with the
 * viewer's own vote read beside it, and the author's email for the author and admins.
 */
export async function postById(shared: SharedPosts, id: string, viewer: UserRow | undefined): Promise<PostDetail> {
  const [row, myVote] = await Promise.all([shared.post(id), viewer && shared.voteOf(id, viewer.id)]);
  if (!row) throw new NotFoundError('No such post');
  return postDetail(myVote === undefined ? row : { ...row, my_vote: myVote }, viewer);
}

export function postRoutes(posts: PostsStore, shared: SharedPosts, users: UsersStore): Router {
  const router = Router();

  /** The spec's My Posts: the user's newest UNPAGED_LIST_MAX posts; all of them counted in X-Total-Count. */
  router.get('/my-posts/:email', async (req, res) => {
    const { email } = parseInput(EmailParams, req.params);
    const owner = await ownerOrAdmin(users, res, email, 'You can only see your own posts');
    const { rows, total } = await posts.byAuthor(owner.id);
    res.set(totalCountHeaders(total)).json(rows.map(listItem));
  });

  router.get('/user-post-count/:email', async (req, res) => {
    const { email } = parseInput(EmailParams, req.params);
    const owner = await ownerOrAdmin(users, res, email, 'You can only see your own posts');
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
    res.json(await homePage(posts, parseInput(ListPostsQuery, req.query)));
  });

  router.get('/posts/:id', async (req, res) => {
    const { id } = parseInput(PostIdParams, req.params);
    res.json(await postById(shared, id, res.locals.viewer));
  });

  return router;
}
