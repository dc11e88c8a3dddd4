import { COMMENT_PREVIEW_LENGTH } from '@forum/contracts';

/**
 * Spec §2 Post Comments / §9: a comment longer than COMMENT_PREVIEW_LENGTH characters is cut
 * there and followed by '...'. Characters, not UTF-16 units, so an emoji is never split.
 */
export function commentPreview(text: string): { preview: string; cut: boolean } {
  const characters = Array.from(text);
  if (characters.length <= COMMENT_PREVIEW_LENGTH) return { preview: text, cut: false };
  return { preview: `${characters.slice(0, COMMENT_PREVIEW_LENGTH).join('')}...`, cut: true };
}
