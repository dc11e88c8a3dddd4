import type { CommentItem } from '@forum/contracts';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import type { CommentPages } from './use-comment-pages';

/** The element id of a comment in the list: what `commentLink`'s `#comment-<id>` names. */
export const commentAnchorId = (commentId: string) => `comment-${commentId}`;

/** The comment a `#comment-<id>` address names, or null. */
export function anchoredComment(hash: string): string | null {
  const match = /^#comment-(.+)$/.exec(hash);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * A link to one comment (`/post/<id>#comment-<id>`, where a notification leads): the pages of the
 * list are read until it is there (or there are no more), then the page scrolls to it and focus
 * goes to it, once per address. Answers the comment's id while the address names it, so the list
 * can mark it out.
 */
export function useCommentAnchor(comments: readonly CommentItem[], pages: CommentPages): string | null {
  const { hash } = useLocation();
  const wanted = anchoredComment(hash);
  const reached = useRef<string | null>(null);
  const found = wanted !== null && comments.some((comment) => comment._id === wanted);

  useEffect(() => {
    if (wanted === null || reached.current === hash || pages.isLoading) return;
    if (!found) {
      if (pages.hasMore && !pages.isLoadingMore) pages.loadMore();
      return;
    }
    reached.current = hash;
    const element = document.getElementById(commentAnchorId(wanted));
    element?.scrollIntoView({ block: 'center' });
    element?.focus({ preventScroll: true });
  }, [hash, wanted, found, pages]);

  return found ? wanted : null;
}
