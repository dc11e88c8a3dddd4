import type { MarkedText } from '@forum/contracts';
import { Box } from '@mui/material';
import { Fragment } from 'react';

/** A snippet's runs as text, the words the search found as <mark> (plain text throughout: nothing of it is read as markup). */
export function Highlighted({ runs }: { runs: MarkedText }) {
  return runs.map((run, i) =>
    run.marked ? (
      <Box key={i} component="mark" sx={{ bgcolor: '#fff0a6', color: 'text.primary', borderRadius: 0.5, px: '1px' }}>
        {run.text}
      </Box>
    ) : (
      <Fragment key={i}>{run.text}</Fragment>
    ),
  );
}
