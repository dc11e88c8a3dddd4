import type { SxProps, Theme } from '@mui/material';

/** An `sx` prop as a list: MUI's `sx` takes one style, a function of the theme, or a list of them. */
export type SxList = Extract<SxProps<Theme>, ReadonlyArray<unknown>>;

const isList = (sx: SxProps<Theme>): sx is SxList => Array.isArray(sx);

/** A component's `sx` prop as a list, to spread after the component's own styles (`sx={[own, ...sxList(sx)]}`). */
export function sxList(sx: SxProps<Theme> | undefined): SxList {
  if (sx === undefined) return [];
  return isList(sx) ? sx : [sx];
}
