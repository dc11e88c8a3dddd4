import { Button } from '@mui/material';
import type { MouseEvent } from 'react';

/** The id of the page's main landmark, the skip link's target. */
export const MAIN_ID = 'main-content';

/**
 * 'Skip to main content': the page's first stop for Tab, out of sight until focused. It moves the
 * focus to the main landmark (not only the scroll, as a bare fragment link would leave it), so the
 * next Tab goes on past the navigation bar, and the address keeps no '#main-content'.
 */
export function SkipLink() {
  const skip = (event: MouseEvent) => {
    event.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };
  return (
    <Button
      component="a"
      href={`#${MAIN_ID}`}
      onClick={skip}
      variant="contained"
      sx={{
        position: 'fixed',
        left: 16,
        top: -80,
        zIndex: (theme) => theme.zIndex.appBar + 1,
        '&:focus': { top: 12, outline: '3px solid', outlineColor: 'common.white', outlineOffset: 2 },
      }}
    >
      Skip to main content
    </Button>
  );
}
