import { POST_SORTS, type PostSort } from '@forum/contracts';
import { MenuItem, TextField } from '@mui/material';

const sortLabels: Record<PostSort, string> = { newest: 'Newest', popularity: 'Popularity' };

interface SortSelectProps {
  value: PostSort;
  onChange: (sort: PostSort) => void;
}

export function SortSelect({ value, onChange }: SortSelectProps) {
  return (
    <TextField
      select
      size="small"
      label="Sort by"
      value={value}
      onChange={(event) => onChange(event.target.value as PostSort)}
      sx={{ minWidth: 160 }}
    >
      {POST_SORTS.map((sort) => (
        <MenuItem key={sort} value={sort}>
          {sortLabels[sort]}
        </MenuItem>
      ))}
    </TextField>
  );
}
