/** The Gold membership's colours (the membership page, the badge, a Gold member's photo ring). */
export const GOLD = '#c9a227';
/** Gold dark enough for white text (4.9:1). */
export const GOLD_DARK = '#8a6d00';
/** The Gold badge's own colours: dark gold text on a pale gold (5.7:1). */
export const GOLD_PALE = '#fdf6dc';
export const GOLD_TEXT = '#7a5d00';
