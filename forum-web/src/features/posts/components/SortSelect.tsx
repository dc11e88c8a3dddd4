import { POST_SORTS, type PostSort } from '@forum/contracts';
import { FormControl, InputLabel, NativeSelect, OutlinedInput } from '@mui/material';
import { startTransition, useId, useOptimistic } from 'react';

const sortLabels: Record<PostSort, string> = { newest: 'Newest', popularity: 'Popularity' };

interface SortSelectProps {
  value: PostSort;
  onChange: (sort: PostSort) => void;
}

/**
 * Spec §2 Home: the sort selector. The browser's own select: the phone's picker on a phone,
 * the keyboard as everywhere else, and no menu code for the home page to load. The sort chosen
 * shows at once: a new sort is a navigation, which React renders as a transition, and until it
 * ends the page (this select's value with it) is still the one before.
 */
export function SortSelect({ value, onChange }: SortSelectProps) {
  const id = useId();
  const [shown, show] = useOptimistic(value);
  const choose = (sort: PostSort) =>
    startTransition(() => {
      show(sort);
      onChange(sort);
    });
  return (
    <FormControl size="small" sx={{ minWidth: 160 }}>
      <InputLabel htmlFor={id} shrink>
        Sort by
      </InputLabel>
      <NativeSelect
        value={shown}
        onChange={(event) => choose(event.target.value as PostSort)}
        input={<OutlinedInput label="Sort by" notched />}
        inputProps={{ id }}
      >
        {POST_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {sortLabels[sort]}
          </option>
        ))}
      </NativeSelect>
    </FormControl>
  );
}
