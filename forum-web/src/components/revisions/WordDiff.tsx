import { alpha, Box } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { diffWords } from 'diff';

/**
 * The words that changed from `before` to `after` (jsdiff's word diff): inserted words in <ins>,
 * removed ones in <del>, each opened by a visually hidden "added" or "removed", which a screen reader
 * says (it does not announce <ins> and <del> themselves). Line breaks are kept.
 */
export function WordDiff({ before, after }: { before: string; after: string }) {
  const changes = diffWords(before, after);
  return (
    <Box component="p" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.75 }}>
      {changes.map((change, index) =>
        change.added ? (
          <Box key={index} component="ins" sx={{ bgcolor: (theme) => alpha(theme.palette.success.main, 0.16), textDecorationColor: (theme) => theme.palette.success.dark, textDecorationThickness: 2, borderRadius: 0.5 }}>
            <Box component="span" sx={visuallyHidden}>
              {' added: '}
            </Box>
            {change.value}
          </Box>
        ) : change.removed ? (
          <Box key={index} component="del" sx={{ bgcolor: (theme) => alpha(theme.palette.error.main, 0.14), textDecorationColor: (theme) => theme.palette.error.dark, textDecorationThickness: 2, borderRadius: 0.5 }}>
            <Box component="span" sx={visuallyHidden}>
              {' removed: '}
            </Box>
            {change.value}
          </Box>
        ) : (
          <span key={index}>{change.value}</span>
        ),
      )}
    </Box>
  );
}
