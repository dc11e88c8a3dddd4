import { alpha, Box } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { diffWords } from 'diff';

/** How an inserted and a removed run show, and what a screen reader says before it. */
const MARKS = {
  added: { component: 'ins', said: ' added: ', color: 'success', tint: 0.16, gap: 0 },
  removed: { component: 'del', said: ' removed: ', color: 'error', tint: 0.14, gap: 0.5 },
} as const;

function Marked({ kind, text }: { kind: keyof typeof MARKS; text: string }) {
  const mark = MARKS[kind];
  return (
    <Box
      component={mark.component}
      sx={{
        bgcolor: (theme) => alpha(theme.palette[mark.color].main, mark.tint),
        textDecorationColor: (theme) => theme.palette[mark.color].dark,
        textDecorationThickness: 2,
        borderRadius: 0.5,
        // a word replaced: the removed one stands apart from the added one after it
        mr: mark.gap,
      }}
    >
      <Box component="span" sx={visuallyHidden}>
        {mark.said}
      </Box>
      {text}
    </Box>
  );
}

/**
 * The words that changed from `before` to `after` (jsdiff's word diff): inserted words in <ins>,
 * removed ones in <del>, each opened by a visually hidden "added" or "removed", which a screen reader
 * says (it does not announce <ins> and <del> themselves). Line breaks are kept.
 */
export function WordDiff({ before, after }: { before: string; after: string }) {
  return (
    <Box component="p" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.75 }}>
      {diffWords(before, after).map((change, index) =>
        change.added ? (
          <Marked key={index} kind="added" text={change.value} />
        ) : change.removed ? (
          <Marked key={index} kind="removed" text={change.value} />
        ) : (
          <span key={index}>{change.value}</span>
        ),
      )}
    </Box>
  );
}
