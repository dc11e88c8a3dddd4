import { BRAND } from '@forum/contracts';

/** Where a dark surface (the app bar, the footer) sets the focus ring's colour for what is on it. */
export const FOCUS_RING_COLOR = '--forum-focus-ring';

/**
 * The keyboard's focus ring, on every control (WCAG 2.4.7; the theme draws it): 3 px of the primary
 * colour, 7.7:1 on white, or of FOCUS_RING_COLOR where a dark surface sets it (white: 7.7:1 on the
 * bar's blue, 16:1 on the footer's grey).
 */
export const focusRing = {
  outlineStyle: 'solid',
  outlineWidth: 3,
  outlineOffset: 2,
  outlineColor: `var(${FOCUS_RING_COLOR}, ${BRAND.primary})`,
} as const;

const reach = focusRing.outlineWidth + focusRing.outlineOffset;

/**
 * Room for the ring inside a box that hides what overflows it (a line cut with an ellipsis): padding
 * as wide as the ring reaches, taken back by a negative margin, so the text stays where it was.
 */
export const roomForRing = { p: `${reach}px`, m: `-${reach}px` } as const;
