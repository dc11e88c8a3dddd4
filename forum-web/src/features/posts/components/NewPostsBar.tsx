import ArrowUpward from '@mui/icons-material/ArrowUpward';
import { Box, Button } from '@mui/material';

/**
 * 'N new posts' beside the home list's heading: a polite status, so a screen reader says it when
 * posts come, holding a button that shows them. It takes no room until there is something to say,
 * and on a phone it says 'N new' (its name stays 'N new posts'), so the heading's row keeps its
 * sort selector and the list below does not move.
 */
export function NewPostsBar({ count, onShow }: { count: number; onShow: () => void }) {
  const label = count === 1 ? '1 new post' : `${count} new posts`;
  return (
    <Box role="status">
      {count > 0 && (
        <Button variant="contained" size="small" startIcon={<ArrowUpward />} onClick={onShow} aria-label={label} sx={{ borderRadius: 4, whiteSpace: 'nowrap' }}>
          {count} new
          <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            &nbsp;{count === 1 ? 'post' : 'posts'}
          </Box>
        </Button>
      )}
    </Box>
  );
}
