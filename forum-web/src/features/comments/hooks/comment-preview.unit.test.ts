import { COMMENT_PREVIEW_LENGTH } from '@forum/contracts';
import { describe, expect, it } from 'vitest';
import { commentPreview } from './comment-preview';

describe('commentPreview', () => {
  it('keeps a comment of at most COMMENT_PREVIEW_LENGTH characters whole', () => {
    const exact = 'x'.repeat(COMMENT_PREVIEW_LENGTH);
    expect(commentPreview(exact)).toEqual({ preview: exact, cut: false });
    expect(commentPreview('Nice post')).toEqual({ preview: 'Nice post', cut: false });
    expect(commentPreview('')).toEqual({ preview: '', cut: false });
  });

  it("cuts a longer one after COMMENT_PREVIEW_LENGTH characters and adds '...'", () => {
    const text = 'This comment is clearly longer than the preview';
    expect(commentPreview(text)).toEqual({ preview: `${text.slice(0, COMMENT_PREVIEW_LENGTH)}...`, cut: true });
    expect(commentPreview('y'.repeat(COMMENT_PREVIEW_LENGTH + 1)).preview).toBe(`${'y'.repeat(COMMENT_PREVIEW_LENGTH)}...`);
  });

  it('counts an emoji as one character and never splits it', () => {
    const text = '👍'.repeat(COMMENT_PREVIEW_LENGTH + 5);
    const { preview, cut } = commentPreview(text);
    expect(cut).toBe(true);
    expect(preview).toBe(`${'👍'.repeat(COMMENT_PREVIEW_LENGTH)}...`);
  });
});
