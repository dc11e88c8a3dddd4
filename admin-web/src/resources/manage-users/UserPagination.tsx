import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { Button, Stack, Typography } from '@mui/material';
import { useListContext } from 'react-admin';

/**
 * Spec §2 Manage Users pager: previous, 'Page N', next; next is disabled once this page reaches
 * the total (page × page size ≥ total, spec §4).
 */
export function UserPagination() {
  const { page, perPage, total, setPage, isPending } = useListContext();
  const last = total === undefined || page * perPage >= total;
  return (
    <Stack component="nav" aria-label="Pages of users" direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'flex-end', p: 1 }}>
      <Button size="small" startIcon={<ChevronLeft />} disabled={isPending || page <= 1} onClick={() => setPage(page - 1)}>
        Previous
      </Button>
      <Typography variant="body2" aria-live="polite">
        Page {page}
      </Typography>
      <Button size="small" endIcon={<ChevronRight />} disabled={isPending || last} onClick={() => setPage(page + 1)}>
        Next
      </Button>
    </Stack>
  );
}
