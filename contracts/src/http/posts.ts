import { z } from 'zod';
import { EDIT_REASON_MAX, POST_DESCRIPTION_MAX, POST_SORTS, POST_TAGS_MAX, POST_TITLE_MAX } from '../constants.ts';
import { VOTES } from '../events/vote.ts';
import { droppingSpecFields, emailText, pageNumber, tagNameRule, text, type TextRule } from '../text-policy.ts';
import { HiddenMark } from './moderation.ts';

/** A tag's name, as a post carries it, a search names it and an admin adds it. */
export const tagName = (label: string, required?: string) => text(tagNameRule(label, required));

/** A post's title and description (Add Post's counters count by them). */
export const POST_TITLE_RULE: TextRule = { kind: 'title', label: 'Title', max: POST_TITLE_MAX, required: 'Title is required' };
export const POST_DESCRIPTION_RULE: TextRule = { kind: 'body', label: 'Description', max: POST_DESCRIPTION_MAX, required: 'Description is required' };

/** A post's tags as sent (the command side checks that each is an existing tag). */
const postTags = z.array(tagName('Tag'), 'Tags must be a list').max(POST_TAGS_MAX, `At most ${POST_TAGS_MAX} tags`);

/**
 * POST /api/posts. The spec's client also sends upVote, downVote, authorName,
 * authorEmail, authorPhoto and createdAt: those come from the token and the
 * server clock, so they are not part of the request and are dropped.
 */
export const CreatePostRequest = droppingSpecFields(
  ['upVote', 'downVote', 'authorName', 'authorEmail', 'authorPhoto', 'createdAt'],
  z.strictObject({
    title: text(POST_TITLE_RULE),
    description: text(POST_DESCRIPTION_RULE),
    tags: postTags.default([]),
  }),
);
export type CreatePostRequest = z.infer<typeof CreatePostRequest>;

/** Why staff edited someone else's post or comment (required then; optional for an author). */
export const EDIT_REASON_RULE: TextRule = { kind: 'line', label: 'Reason', max: EDIT_REASON_MAX, required: 'Reason must not be empty' };

/** PATCH /api/posts/:id: the fields to change (at least one), by the same rules as creating. */
export const EditPostRequest = z
  .strictObject({
    title: text(POST_TITLE_RULE).optional(),
    description: text(POST_DESCRIPTION_RULE).optional(),
    tags: postTags.optional(),
    reason: text(EDIT_REASON_RULE).optional(),
  })
  .refine((edit) => edit.title !== undefined || edit.description !== undefined || edit.tags !== undefined, {
    message: 'Change the title, the description or the tags',
    path: ['title'],
  });
export type EditPostRequest = z.infer<typeof EditPostRequest>;

export const ListPostsQuery = z.object({
  page: pageNumber.default(1),
  sort: z.enum(POST_SORTS, `Sort must be one of ${POST_SORTS.join(', ')}`).default('newest'),
});
export type ListPostsQuery = z.infer<typeof ListPostsQuery>;

export const PostListItem = z.object({
  _id: z.string(),
  title: z.string(),
  summary: z.string(),
  tags: z.array(z.string()),
  authorName: z.string(),
  /** The author's user id, for their public profile (profilePath); null once they are erased (then authorName is 'Deleted user'). */
  authorId: z.string().nullable(),
  authorPhoto: z.string(),
  createdAt: z.string(),
  upVote: z.number(),
  downVote: z.number(),
  commentCount: z.number(),
  /** When its latest visible revision was made; absent while it has only the first (as created). */
  editedAt: z.string().optional(),
  /** Its visible revisions, 1 as created. */
  revisionCount: z.number().int(),
  /** Staff pinned it (issue #43): present, true, only then. */
  pinned: z.literal(true).optional(),
  /** Staff locked it, no new comments (issue #43): present, true, only then. */
  locked: z.literal(true).optional(),
  /**
   * Hidden by staff (issue #43): only its author and staff are answered it (GET /api/posts/:id, the
   * author's My Posts), with this mark; anyone else gets 404, and no list holds it.
   */
  hidden: HiddenMark.optional(),
});
export type PostListItem = z.infer<typeof PostListItem>;

/**
 * GET /api/posts: a page. The home page's first page (newest or popularity) also has `pinned`: the
 * pinned posts (at most PINNED_MAX, newest pin first), which the pages themselves then leave out.
 */
export const PostsPage = z.object({ posts: z.array(PostListItem), totalCount: z.number(), pinned: z.array(PostListItem).optional() });
export type PostsPage = z.infer<typeof PostsPage>;

/**
 * A text cut into runs, each `marked` or not: the words a search matched are the marked runs. Plain
 * text throughout (a client shows a marked run as <mark>, never as markup of its own).
 */
export const MarkedText = z.array(z.object({ text: z.string(), marked: z.boolean() }));
export type MarkedText = z.infer<typeof MarkedText>;

/**
 * A post a full-text search found: the list's fields and `snippet`, its title whole and the parts of
 * its description around the words found (at most SEARCH_SNIPPET_MAX characters; its first words when
 * only the title matched), the matched words marked.
 */
export const SearchResult = PostListItem.extend({ snippet: z.object({ title: MarkedText, description: MarkedText }) });
export type SearchResult = z.infer<typeof SearchResult>;

/**
 * GET /api/posts/search with `q`: a page of the best-ranked among the newest SEARCH_MATCH_CAP
 * matches. `totalCountCapped` true: more than `totalCount` (= SEARCH_MATCH_CAP) posts match, and
 * the pages cover those; false: `totalCount` is exact.
 */
export const SearchPage = z.object({ posts: z.array(SearchResult), totalCount: z.number(), totalCountCapped: z.boolean() });
export type SearchPage = z.infer<typeof SearchPage>;

/**
 * GET /api/posts/:id. authorEmail is present only for the author and admins;
 * myVote, the caller's own vote, and byMe, whether the caller wrote it (no votes
 * on one's own post), only when a token is sent.
 */
export const PostDetail = PostListItem.extend({
  description: z.string(),
  authorEmail: z.string().optional(),
  myVote: z.enum(VOTES).optional(),
  byMe: z.boolean().optional(),
  /** The caller reported it already (issue #43: no second report); only when a token is sent. */
  reportedByMe: z.boolean().optional(),
  /** Why staff locked it, when they said (with `locked`). */
  lockReason: z.string().optional(),
});
export type PostDetail = z.infer<typeof PostDetail>;

/**
 * A revision of a post or comment: its number (1 is as created), when it was made (from the second on,
 * its last change within the grace period), by whom (their current name; "Deleted user" after their
 * erasure), and the reason staff gave.
 */
const revisionFields = { number: z.number().int(), editedAt: z.string(), editorName: z.string(), reason: z.string().optional() };

/** A post's revision: its title, description and tags then. */
export const PostRevision = z.object({ ...revisionFields, title: z.string(), description: z.string(), tags: z.array(z.string()) });
export type PostRevision = z.infer<typeof PostRevision>;

/** GET /api/posts/:id/revisions: the newest REVISION_LIST_MAX, oldest first, and how many there are. */
export const PostRevisions = z.object({ revisions: z.array(PostRevision), totalCount: z.number().int() });
export type PostRevisions = z.infer<typeof PostRevisions>;

/** A comment's revision: its text then. */
export const CommentRevision = z.object({ ...revisionFields, text: z.string() });
export type CommentRevision = z.infer<typeof CommentRevision>;

/** GET /api/comments/:commentId/revisions: as PostRevisions. */
export const CommentRevisions = z.object({ revisions: z.array(CommentRevision), totalCount: z.number().int() });
export type CommentRevisions = z.infer<typeof CommentRevisions>;

/** GET /api/tags: the public tag list, names only. */
export const TagNames = z.array(z.string());
export type TagNames = z.infer<typeof TagNames>;

/** `:id` of a post in a path. */
export const PostIdParams = z.object({ id: z.string().uuid('Not a post id') });

/** `:email` of a user in a path (my-posts, user-post-count, user-profile). */
export const EmailParams = z.object({ email: emailText('Email', { invalid: 'Not an email address' }) });

/** GET /api/user-post-count/:email */
export const PostCount = z.object({ count: z.number().int() });
export type PostCount = z.infer<typeof PostCount>;
