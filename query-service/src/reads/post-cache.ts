import type { Vote } from '@forum/contracts';
import type { CheckpointWatcher } from '../store/checkpoint-watcher.ts';
import type { CommentRows, CommentsPageOf, CommunityStore, HiddenView } from '../store/community.ts';
import type { PostRow, PostsStore } from '../store/posts.ts';
import { versionMemo } from './version-memo.ts';

/**
 * A post and its comments as every reader reads them, visitors and members alike, kept in memory
 * while the read side's version holds (see VersionMemo); and the viewer's own part, read per
 * request by one lookup on a key: their vote on the post, which of a page's comments they
 * reported. What a viewer may see of the shared part (an author's email, byMe) is decided from
 * the shared rows and the viewer's record (see postDetail, comment). What staff hid is never kept
 * (issue #43): the shared rows leave it out, and its author's and staff's reads of it go to the
 * read model each time (`hiddenPost`, `commentsWithHidden`).
 */
export interface PostCache {
  post(id: string): Promise<PostRow | null>;
  hiddenPost(id: string): Promise<PostRow | null>;
  /** Whether a post of this id was deleted (never kept: asked only when no post is there). */
  wasDeleted(id: string): Promise<boolean>;
  postReportedBy(postId: string, userId: string): Promise<boolean>;
  comments(postId: string, page: CommentsPageOf): Promise<CommentRows | null>;
  /** A page of comments with what staff hid that `view` sees (never kept). */
  commentsWithHidden(postId: string, page: CommentsPageOf, view: NonNullable<HiddenView>): Promise<CommentRows | null>;
  /** Whether a member wrote a hidden post or comment there (their reads of its comments are then their own). */
  hidesFor(postId: string, memberId: string): Promise<boolean>;
  voteOf(postId: string, userId: string): Promise<Vote>;
  reportedBy(readerId: string, commentIds: readonly string[]): Promise<ReadonlySet<string>>;
}

/** `maxRows`: rows kept (a post counts one, a page of comments one and one per comment); 0: none kept, every read runs its statement. */
export function createPostCache(
  stores: { readonly posts: PostsStore; readonly community: CommunityStore },
  watcher: Pick<CheckpointWatcher, 'version'>,
  options: { maxRows: number },
): PostCache {
  const { posts, community } = stores;
  const memo = versionMemo<PostRow | CommentRows>(watcher, { maxSize: options.maxRows, sizeOf: (value) => ('rows' in value ? 1 + value.rows.length : 1) });
  return {
    post: (id) => memo.read(`post ${id}`, () => posts.byId(id)),
    comments: (postId, page) =>
      memo.read(`comments ${postId} ${page.order} ${page.after ? `${page.after.micros} ${page.after.id}` : '-'} ${page.limit}`, () =>
        community.commentsOf(postId, page),
      ),
    commentsWithHidden: (postId, page, view) => community.commentsOf(postId, page, view),
    hidesFor: (postId, memberId) => community.hidesFor(postId, memberId),
    hiddenPost: (id) => posts.hiddenById(id),
    wasDeleted: (id) => posts.wasDeleted(id),
    postReportedBy: (postId, userId) => posts.reportedBy(postId, userId),
    voteOf: (postId, userId) => posts.voteOf(postId, userId),
    reportedBy: (readerId, commentIds) => community.reportedBy(readerId, commentIds),
  };
}
