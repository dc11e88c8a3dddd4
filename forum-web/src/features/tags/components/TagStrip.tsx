import { Box, Stack, Typography } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { useEffect, useState, type FocusEvent } from 'react';
import { TagChip } from '../../../components/TagChip';
import { useGetTagsQuery } from '../../../lib/tags';

const scroll = keyframes`
  from { transform: translateX(0); }
  to { transform: translateX(-100%); }
`;

/** The strip standing still: one copy in a row that scrolls, with room at its ends for a chip's focus ring. */
const still = {
  overflowX: 'auto',
  maskImage: 'none',
  scrollPaddingInline: 8,
  '& .tag-strip-copy': { animation: 'none', minWidth: 'auto', justifyContent: 'flex-start', px: 1 },
  '& .tag-strip-copy[aria-hidden]': { display: 'none' },
} as const;

/** The strip's height: its heading (an overline, 12 px at a line height of 2.66) and a row of medium chips (32 px) with room for their focus rings (6 px above and below). */
const STRIP_HEIGHT = 12 * 2.66 + 32 + 2 * 6;

/**
 * The home tag strip (spec §2, §9): every tag, scrolling in a 20-second loop.
 * Two copies of the list each move by their own width, so the loop has no seam;
 * the second copy is hidden from assistive tech and the tab order. The strip
 * stops on hover and focus. It becomes a plain scrollable row for readers who ask
 * for reduced motion, and from when the keyboard brings the focus in until the
 * focus leaves: each chip reached is scrolled into view (a paused loop may have
 * moved it out). A pointer's focus does not change the layout, so the chip under
 * the pointer stays there for its click.
 */
export function TagStrip() {
  const { data: tags = [], error, isLoading } = useGetTagsQuery();
  const [keyboardIn, setKeyboardIn] = useState(false);

  const focused = (event: FocusEvent<HTMLElement>) => {
    if (!event.target.matches(':focus-visible')) return;
    setKeyboardIn(true);
    // after the layout has become the still row; the page itself moves no more than it must
    const chip = event.target;
    requestAnimationFrame(() => chip.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
  };
  const left = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setKeyboardIn(false);
  };

  useEffect(() => {
    if (error) console.error('Loading tags failed', error);
  }, [error]);

  // while the tags load, the strip's room is kept: the page under it does not move when they come
  if (isLoading) return <Box aria-hidden sx={{ height: STRIP_HEIGHT }} />;
  if (tags.length === 0) return null;

  const copy = (hidden: boolean) => (
    <Stack
      component="ul"
      direction="row"
      aria-hidden={hidden || undefined}
      className="tag-strip-copy"
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        pr: 1,
        gap: 1,
        flexShrink: 0,
        minWidth: '100%',
        justifyContent: 'space-around',
        animation: `${scroll} 20s linear infinite`,
      }}
    >
      {tags.map((tag) => (
        <li key={tag}>
          <TagChip tag={tag} size="medium" tabIndex={hidden ? -1 : undefined} />
        </li>
      ))}
    </Stack>
  );

  return (
    <Box component="nav" aria-labelledby="tag-strip-heading">
      <Typography id="tag-strip-heading" variant="overline" component="h2" color="text.secondary">
        Browse by tag
      </Typography>
      <Box
        onFocus={focused}
        onBlur={left}
        sx={{
          display: 'flex',
          overflow: 'hidden',
          // room for a chip's focus ring (3 px, 2 px away) above and below
          py: 0.75,
          maskImage: 'linear-gradient(to right, transparent, #000 4%, #000 96%, transparent)',
          '&:hover .tag-strip-copy, &:focus-within .tag-strip-copy': { animationPlayState: 'paused' },
          '@media (prefers-reduced-motion: reduce)': still,
          ...(keyboardIn && still),
        }}
      >
        {copy(false)}
        {copy(true)}
      </Box>
    </Box>
  );
}
