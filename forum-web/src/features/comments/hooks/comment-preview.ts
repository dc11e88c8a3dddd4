import { COMMENT_PREVIEW_LENGTH, cutText } from '@forum/contracts';
import { plainLine } from '@forum/contracts/markdown';

/** Spec §2 Post Comments / §9: a comment longer than COMMENT_PREVIEW_LENGTH characters is cut there and followed by '...'; its plain text (no Markdown) on one line. */
export function commentPreview(text: string): { preview: string; cut: boolean } {
  return cutText(plainLine(text), COMMENT_PREVIEW_LENGTH);
}
