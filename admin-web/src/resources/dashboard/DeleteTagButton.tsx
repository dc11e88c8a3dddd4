import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import { IconButton } from '@mui/material';
import type { TagRecord } from './types';

/** Spec §2 a tag's delete icon, named after its tag: it asks Manage Tags' confirmation for it. */
export function DeleteTagButton({ tag, onDelete }: { tag: TagRecord; onDelete: (tag: TagRecord, opener: HTMLElement) => void }) {
  return (
    <IconButton size="small" aria-label={`Delete tag #${tag.name}`} onClick={(event) => onDelete(tag, event.currentTarget)} sx={{ color: 'error.main' }}>
      <DeleteOutlineOutlined fontSize="small" />
    </IconButton>
  );
}
