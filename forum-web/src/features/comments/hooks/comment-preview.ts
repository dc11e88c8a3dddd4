import { COMMENT_PREVIEW_LENGTH, cutText } from '@forum/contracts';

/** Spec §2 Post Comments / §9: a comment longer than COMMENT_PREVIEW_LENGTH characters is cut there and followed by '...'. */
export function commentPreview(text: string): { preview: string; cut: boolean } {
  return cutText(text, COMMENT_PREVIEW_LENGTH);
}
