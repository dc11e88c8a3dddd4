import type { CSSObject, Theme } from '@mui/material/styles';

/** Room kept above a field brought into view, below the bar: its floating label and a little air. */
const ABOVE_FIELD_PX = 32;
/** The fixed bar's bottom border (NavBar). */
const BAR_BORDER_PX = 1;

/** The toolbar mixin (minHeight per breakpoint and orientation) turned into scroll-margin-top, at each of its media queries. */
function marginsOf(toolbar: CSSObject): CSSObject {
  return Object.fromEntries(
    Object.entries(toolbar).map(([key, value]) =>
      key === 'minHeight'
        ? ['scrollMarginTop', Number(value) + BAR_BORDER_PX + ABOVE_FIELD_PX]
        : [key, typeof value === 'object' && value !== null ? marginsOf(value as CSSObject) : value],
    ),
  );
}

/**
 * Every form field of the page (in its main landmark) keeps clear of the fixed app bar when it is
 * scrolled into view: by the browser's own check ('Please fill out this field'), by a form that
 * moves the focus to its first field in error, or by Tab. The bar is as tall as the toolbar mixin
 * at each width, so is the margin. (The bar's own search field and dialogs, above the bar, are not in main.)
 */
export const fieldsClearOfBar = (theme: Theme): CSSObject => ({
  'main :is(input, textarea, select)': marginsOf(theme.mixins.toolbar),
});
