import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { Button, Stack, Typography } from '@mui/material';

interface PostPagerProps {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}

/** Prev / Next and 'Page n / total' under a paged list of posts (the home list, a tag's, a search's). */
export function PostPager({ page, totalPages, onPageChange }: PostPagerProps) {
  return (
    <Stack component="nav" aria-label="Pages" direction="row" spacing={2} sx={{ justifyContent: 'center', alignItems: 'center' }}>
      <Button variant="outlined" startIcon={<ChevronLeft />} disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        Prev
      </Button>
      <Typography role="status" sx={{ minWidth: 96, textAlign: 'center', fontVariantNumeric: 'tabular-nums' }}>
        Page {page} / {totalPages}
      </Typography>
      <Button variant="outlined" endIcon={<ChevronRight />} disabled={page >= totalPages} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </Stack>
  );
}
