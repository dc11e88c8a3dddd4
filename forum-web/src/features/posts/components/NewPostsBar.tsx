import ArrowUpward from '@mui/icons-material/ArrowUpward';
import { Box, Button } from '@mui/material';

/**
 * 'N new posts' above the home list: a polite status, so a screen reader says it when posts come,
 * holding a button that shows them. It takes no room until there is something to say.
 */
export function NewPostsBar({ count, onShow }: { count: number; onShow: () => void }) {
  return (
    <Box role="status">
      {count > 0 && (
        <Button variant="contained" size="small" startIcon={<ArrowUpward />} onClick={onShow} sx={{ borderRadius: 4 }}>
          {count === 1 ? '1 new post' : `${count} new posts`}
        </Button>
      )}
    </Box>
  );
}
