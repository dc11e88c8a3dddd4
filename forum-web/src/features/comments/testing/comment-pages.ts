import type { CommentItem, CommentsPage } from '@forum/contracts';
import { screen } from '@testing-library/react';

/**
 * What the API answers a GET of /api/posts/:id/comments over `list` (newest first, the order the
 * app asks for), `size` comments a page. The cursor here is the index the next page starts at:
 * the app only passes back what `nextCursor` gave.
 */
export function commentPage(list: readonly CommentItem[], request: Request, size: number): CommentsPage {
  const url = new URL(request.url);
  if (url.searchParams.get('order') !== 'newest') throw new Error(`comments asked for in another order: ${url.search}`);
  const start = Number(url.searchParams.get('after') ?? 0);
  return { comments: list.slice(start, start + size), nextCursor: start + size < list.length ? String(start + size) : null, totalCount: list.length };
}

/** The live status under the list that says how many comments are shown (the router's 'Current page' is a status too). */
export const shownStatus = () => screen.getAllByRole('status').find((status) => status.textContent?.startsWith('Showing'));
