import { Box, Button, Typography } from '@mui/material';
import { useId, useState } from 'react';

/** Longer than this, a text shows its start and 'Read more'. */
export const PREVIEW_CHARS = 180;

/**
 * A text that may be long: the first PREVIEW_CHARS characters and 'Read more' (a toggle, with
 * aria-expanded) when it is longer; the whole text, line breaks kept, once expanded.
 */
export function ExpandableText({ text, label }: { text: string; label: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const long = text.length > PREVIEW_CHARS;
  const shown = !long || open ? text : `${text.slice(0, PREVIEW_CHARS).trimEnd()}…`;
  return (
    <Box sx={{ maxWidth: 560, minWidth: 200 }}>
      <Typography id={id} variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {shown}
      </Typography>
      {long && (
        <Button
          size="small"
          sx={{ px: 0.5, minWidth: 0 }}
          aria-expanded={open}
          aria-controls={id}
          aria-label={`${open ? 'Show less of' : 'Read more of'} ${label}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : 'Read more'}
        </Button>
      )}
    </Box>
  );
}
