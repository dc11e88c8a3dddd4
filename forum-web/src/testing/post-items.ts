import type { PostListItem } from '@forum/contracts';

/** A post as lists and searches give it: `title`, a summary made of it, `tags`, by Bob Chen (u-bob), no votes or comments. */
export const postItem = (id: string, title: string, tags: string[]): PostListItem => ({
  _id: id,
  title,
  summary: `${title} in short...`,
  tags,
  authorName: 'Bob Chen',
  authorId: 'u-bob',
  authorPhoto: '',
  createdAt: '2026-11-23T18:00:00.000Z',
  upVote: 0,
  downVote: 0,
  commentCount: 0,
  revisionCount: 1,
});
