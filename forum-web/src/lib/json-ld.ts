import { postPagePath, profilePath, type CommentItem, type PostDetail } from '@forum/contracts';
import { markdownToPlainText } from '@forum/contracts/markdown';

const person = (name: string, authorId: string | null, origin: string) => ({
  '@type': 'Person',
  name,
  ...(authorId !== null && { url: new URL(profilePath(authorId), origin).href }),
});

const counter = (action: 'LikeAction' | 'CommentAction', count: number) => ({
  '@type': 'InteractionCounter',
  interactionType: `https://schema.org/${action}`,
  userInteractionCount: count,
});

/**
 * A post's page as schema.org's DiscussionForumPosting (what search engines read of a forum's
 * thread): its title, its text as plain text, its author with their profile's address, its dates,
 * its likes and comments counted, and the comments of its first page.
 */
export function postJsonLd(post: PostDetail, comments: readonly CommentItem[], origin: string) {
  const url = new URL(postPagePath(post._id), origin).href;
  return {
    '@context': 'https://schema.org',
    '@type': 'DiscussionForumPosting',
    '@id': url,
    url,
    headline: post.title,
    text: markdownToPlainText(post.description),
    author: person(post.authorName, post.authorId, origin),
    datePublished: post.createdAt,
    dateModified: post.editedAt ?? post.createdAt,
    keywords: post.tags,
    interactionStatistic: [counter('LikeAction', post.upVote), counter('CommentAction', post.commentCount)],
    comment: comments.map((comment) => ({
      '@type': 'Comment',
      url: `${url}#comment-${comment._id}`,
      text: markdownToPlainText(comment.text),
      author: person(comment.authorName, comment.authorId, origin),
      datePublished: comment.createdAt,
      ...(comment.editedAt && { dateModified: comment.editedAt }),
    })),
  };
}
